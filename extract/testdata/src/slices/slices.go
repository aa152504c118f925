// Package slices holds systems over slices, struct values, named types and
// strings, each with a known x86-TSO and SC verdict.
package slices

import (
	"sync"
	"sync/atomic"
)

// sliceMP is message passing through two elements of one slice.
//
//fencecheck:system
func sliceMP() {
	buf := make([]int32, 2)
	go func() {
		buf[0] = 1
		buf[1] = 1
	}()
	go func() {
		if buf[1] == 1 && buf[0] == 0 {
			panic("stale data")
		}
	}()
}

// sliceSB is store buffering over the elements of a slice literal.
//
//fencecheck:system
func sliceSB() {
	s := []int32{0, 0, 0, 0}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s[0] = 1
		s[3] = s[1]
		wg.Done()
	}()
	go func() {
		s[1] = 1
		s[2] = s[0]
		wg.Done()
	}()
	wg.Wait()
	if s[2] == 0 && s[3] == 0 {
		panic("both loads saw 0")
	}
}

// window writes through a reslice: w[0] is a[1].
//
//fencecheck:system
func window() {
	a := make([]int32, 4)
	w := a[1:3]
	go func() { w[0] = 1 }()
	go func() {
		if a[1] == 1 {
			panic("a[1] written through w")
		}
	}()
}

// windowMiss writes through a reslice that does not cover a[0].
//
//fencecheck:system
func windowMiss() {
	a := make([]int32, 4)
	w := a[1:3]
	go func() { w[1] = 1 }()
	go func() {
		if a[0] == 1 || a[1] == 1 {
			panic("wrong element written")
		}
	}()
}

type table struct {
	idx int32
	s   []int32
}

// dynIndex indexes a slice with a value read at run time.
//
//fencecheck:system
func dynIndex() {
	t := &table{s: make([]int32, 2)}
	go func() { t.idx = 1 }()
	go func() {
		i := t.idx
		t.s[i] = 1
		if t.s[1] == 1 {
			panic("wrote slot 1")
		}
	}()
}

// dynWindow indexes a window of length 1 (capacity 4) with 0 or 1: the
// index is checked against the length, so 1 panics.
//
//fencecheck:system
func dynWindow() {
	t := &table{s: make([]int32, 4)[:1]}
	go func() { t.idx = 1 }()
	go func() {
		i := t.idx
		t.s[i] = 1
	}()
}

// dynWindowSafe indexes the same window with 0 only.
//
//fencecheck:system
func dynWindowSafe() {
	t := &table{s: make([]int32, 4)[2:3]}
	go func() { t.idx = 0 }()
	go func() {
		i := t.idx % 2
		if i < int32(len(t.s)) {
			t.s[i] = 1
		}
		if t.s[0] == 1 && cap(t.s) != 2 {
			panic("wrong capacity")
		}
	}()
}

// constOutOfRange indexes past the length of a slice: Go panics at run
// time.
//
//fencecheck:system
func constOutOfRange() {
	a := make([]int32, 3)
	w := a[:1]
	go func() { w[2] = 1 }()
}

type ring struct {
	buf        []int32
	head, tail atomic.Int32
}

func newRing(n int) *ring {
	return &ring{buf: make([]int32, n)}
}

// rangeFill fills a slice with a range loop; main checks every element.
//
//fencecheck:system
func rangeFill() {
	r := newRing(3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for i := range r.buf {
			r.buf[i] = int32(i) + 1
		}
		wg.Done()
	}()
	wg.Wait()
	for i, v := range r.buf {
		if v != int32(i)+1 || len(r.buf) != 3 {
			panic("not filled")
		}
	}
}

// spsc is a single-producer single-consumer ring buffer of two slots with
// atomic head and tail.
//
//fencecheck:system
func spsc() {
	r := newRing(2)
	go func() {
		for v := int32(1); v <= 3; v++ {
			for r.tail.Load()-r.head.Load() == 2 {
			}
			t := r.tail.Load()
			r.buf[t%2] = v
			r.tail.Store(t + 1)
		}
	}()
	go func() {
		for want := int32(1); want <= 3; want++ {
			for r.tail.Load() == r.head.Load() {
			}
			h := r.head.Load()
			if r.buf[h%2] != want {
				panic("lost element")
			}
			r.head.Store(h + 1)
		}
	}()
}

type pair struct{ a, b int32 }

type shared struct {
	mu   sync.Mutex
	pair pair
}

// tornPair reads a struct written by another goroutine: one load per
// field, so the two fields may come from different writes.
//
//fencecheck:system
func tornPair() {
	var s shared
	go func() { s.pair = pair{1, 1} }()
	go func() {
		v := s.pair
		if v.a != v.b {
			panic("torn read")
		}
	}()
}

// lockedPair reads and writes the struct under a mutex.
//
//fencecheck:system
func lockedPair() {
	var s shared
	go func() {
		s.mu.Lock()
		s.pair = pair{1, 1}
		s.mu.Unlock()
	}()
	go func() {
		s.mu.Lock()
		v := s.pair
		s.mu.Unlock()
		if v.a != v.b {
			panic("torn read")
		}
	}()
}

// copyOrder checks that a struct store writes its fields in order: a
// reader that sees b written sees a written (x86 keeps stores in order).
//
//fencecheck:system
func copyOrder() {
	var s shared
	go func() { s.pair = pair{a: 1, b: 2} }()
	go func() {
		b := s.pair.b
		a := s.pair.a
		if b == 2 && a == 0 {
			panic("fields out of order")
		}
	}()
}

type stack struct {
	top   int32
	slots [2]int32
	buf   []int32
}

func newStack() stack {
	return stack{top: 1, buf: make([]int32, 2)}
}

// valueCtor builds the shared state with a constructor returning a struct
// by value.
//
//fencecheck:system
func valueCtor() {
	s := newStack()
	go func() { s.buf[1] = s.top + 1 }()
	go func() {
		if s.buf[1] == 2 && s.slots[1] == 0 {
			panic("top copied")
		}
	}()
}

type seq uint64

type state uint32

type lock struct {
	st  state
	seq seq
}

// namedTypes converts between named types and their underlying types.
//
//fencecheck:system
func namedTypes() {
	var l lock
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			atomic.AddUint32((*uint32)(&l.st), 1)
			wg.Done()
		}()
	}
	wg.Wait()
	l.seq = seq(uint64(l.st) + 1)
	if l.seq != 3 {
		panic("lost update")
	}
}

type msg struct {
	data  int32
	state string
}

// stringFlag publishes data with a string flag.
//
//fencecheck:system
func stringFlag() {
	m := &msg{state: "empty"}
	go func() {
		m.data = 42
		m.state = "full"
	}()
	go func() {
		if m.state == "full" && m.data != 42 && len("full") == 4 {
			panic("stale data")
		}
	}()
}

// stringOrder reads the flag after the data: the data may be stale.
//
//fencecheck:system
func stringOrder() {
	m := &msg{state: "empty"}
	go func() {
		m.data = 42
		m.state = "full"
	}()
	go func() {
		d := m.data
		if m.state != "empty" && d != 42 {
			panic("stale data")
		}
	}()
}

var flags = make([]int32, 2)

// globalSlice is message passing through a package-level slice.
//
//fencecheck:system
func globalSlice() {
	go func() {
		flags[0] = 1
		flags[1] = 1
	}()
	go func() {
		if flags[1] == 1 && flags[0] == 0 {
			panic("stale flag")
		}
	}()
}
