// Package anyslices holds systems whose interface values hold slices kept
// in memory and asserted back: a buffer filled and then handed over in an
// any, a batch a goroutine makes and publishes, a type switch telling a
// []int from a []string, a slice in an atomic.Value. Each has a correct
// system and a buggy twin; comparing two such values (Go panics) and an
// assertion that may give one of two slices are refused.
package anyslices

import (
	"sync"
	"sync/atomic"
)

// mailbox is one slot of any guarded by a mutex.
type mailbox struct {
	mu   sync.Mutex
	slot any
}

func (m *mailbox) put(v any) {
	m.mu.Lock()
	m.slot = v
	m.mu.Unlock()
}

func (m *mailbox) take() any {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := m.slot
	m.slot = nil
	return v
}

// bufferHandoff: the writer fills a buffer and then hands it over; the
// reader asserts it back and sums it.
//
//fencecheck:system
func bufferHandoff() {
	var m mailbox
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		buf[0], buf[1] = 1, 2
		m.put(buf)
	}()
	go func() {
		defer wg.Done()
		for {
			if b, ok := m.take().([]int); ok {
				if b[0]+b[1] != 3 {
					panic("short sum")
				}
				return
			}
		}
	}()
	wg.Wait()
}

// bufferHandoffEarly hands the buffer over before filling it: the reader's
// loads race with the writer's stores.
//
//fencecheck:system
func bufferHandoffEarly() {
	var m mailbox
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.put(buf)
		buf[0], buf[1] = 1, 2 // want `^race: go@\d+ stores buf\[0\] here while go@\d+ loads buf\[0\]`
	}()
	go func() {
		defer wg.Done()
		for {
			if b, ok := m.take().([]int); ok {
				if b[0]+b[1] != 3 {
					panic("short sum") // want `^SC: system bufferHandoffEarly is wrong even under sequential consistency`
				}
				return
			}
		}
	}()
	wg.Wait()
}

// batch: a goroutine makes a slice of values it computes and publishes
// it; the main goroutine reads it back once the goroutine is done.
//
//fencecheck:system
func batch() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		k := 2
		m.put([]int{k, k * k, k * k * k})
		wg.Done()
	}()
	wg.Wait()
	b := m.take().([]int)
	if len(b) != 3 || b[2] != 8 {
		panic("wrong batch")
	}
}

// batchEarly reads the mailbox without waiting: it may still be empty,
// and the assertion panics.
//
//fencecheck:system
func batchEarly() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		k := 2
		m.put([]int{k, k * k})
		wg.Done()
	}()
	b := m.take().([]int) // want `^SC: system batchEarly is wrong even under sequential consistency: the bad state interface conversion: interface is not \[\]int`
	wg.Wait()
	_ = b
}

// kinds: a type switch tells a []int from a []string and counts what each
// holds.
//
//fencecheck:system
func kinds() {
	var m mailbox
	nums := []int{1, 2, 3}
	words := []string{"a"}
	var got int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.put(nums)
		for {
			m.mu.Lock()
			empty := m.slot == nil
			m.mu.Unlock()
			if empty {
				break
			}
		}
		m.put(words)
	}()
	go func() {
		defer wg.Done()
		for seen := 0; seen < 2; {
			switch v := m.take().(type) {
			case []int:
				got += len(v)
				seen++
			case []string:
				got += 10 * len(v)
				seen++
			}
		}
	}()
	wg.Wait()
	if got != 13 {
		panic("wrong count")
	}
}

// config is swapped as a whole through an atomic.Value holding a slice:
// the writer fills a new slice before it stores it.
//
//fencecheck:system
func config() {
	var v atomic.Value
	old, next := []int{1, 1}, []int{0, 0}
	v.Store(old)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		next[0], next[1] = 2, 2
		v.Store(next)
		wg.Done()
	}()
	go func() {
		if c := v.Load().([]int); c[0] != c[1] {
			panic("torn configuration")
		}
		wg.Done()
	}()
	wg.Wait()
}

// configInPlace writes the stored slice in place: the reader sees it half
// written.
//
//fencecheck:system
func configInPlace() {
	var v atomic.Value
	cur := []int{1, 1}
	v.Store(cur)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		cur[0] = 2 // want `^race: go@\d+ stores cur\[0\] here while go@\d+ loads cur\[0\]`
		cur[1] = 2
		wg.Done()
	}()
	go func() {
		if c := v.Load().([]int); c[0] != c[1] {
			panic("torn configuration") // want `^SC: system configInPlace is wrong even under sequential consistency`
		}
		wg.Done()
	}()
	wg.Wait()
}

// compareSlices compares two interface values holding []int: Go panics.
//
//fencecheck:system
func compareSlices() { // want `^inconclusive: system compareSlices: a run reaches comparing interface values that may both hold a \[\]int`
	var m mailbox
	buf := []int{1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m.put(buf)
	}()
	wg.Wait()
	if m.take() == any(buf) {
		panic("equal")
	}
}

// twoSlices may hand over one of two buffers of one length, the one put
// last: the slice asserted back is chosen at run time.
//
//fencecheck:system
func twoSlices() {
	var m mailbox
	a, b := []int{1}, []int{2}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.put(a)
	}()
	go func() {
		defer wg.Done()
		m.put(b)
	}()
	wg.Wait()
	if s, ok := m.take().([]int); ok && s[0] == 2 {
		panic("b was put last") // want `^SC: system twoSlices is wrong even under sequential consistency`
	}
}

// twoLengths may hand over buffers of two lengths: refused at the
// assertion.
//
//fencecheck:system
func twoLengths() { // want `^inconclusive: system twoLengths: a run reaches a type assertion to \[\]int on an interface value that may hold slices of different windows`
	var m mailbox
	a, b := []int{1}, []int{2, 3}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.put(a)
	}()
	go func() {
		defer wg.Done()
		m.put(b)
	}()
	wg.Wait()
	if s, ok := m.take().([]int); ok && len(s) == 0 {
		panic("empty")
	}
}

// items is a cache of any values under a mutex, as go-cache's.
type items struct {
	mu sync.Mutex
	m  map[string]any
}

// cacheItem: a goroutine fills a buffer and sets it under a key of its own
// (a key the set-up did not insert); the reader gets it and sums it.
//
//fencecheck:system
func cacheItem() {
	c := &items{m: map[string]any{}}
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		buf[0], buf[1] = 1, 2
		c.mu.Lock()
		c.m["buf"] = buf
		c.mu.Unlock()
		wg.Done()
	}()
	go func() {
		c.mu.Lock()
		v, ok := c.m["buf"]
		c.mu.Unlock()
		if ok && v.([]int)[0]+v.([]int)[1] != 3 {
			panic("short buffer")
		}
		wg.Done()
	}()
	wg.Wait()
}

// cacheItemEarly sets the buffer before filling it.
//
//fencecheck:system
func cacheItemEarly() {
	c := &items{m: map[string]any{}}
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.mu.Lock()
		c.m["buf"] = buf
		c.mu.Unlock()
		buf[0], buf[1] = 1, 2 // want `^race: go@\d+ stores buf\[0\] here while go@\d+ loads buf\[0\]`
		wg.Done()
	}()
	go func() {
		c.mu.Lock()
		v, ok := c.m["buf"]
		c.mu.Unlock()
		if ok && v.([]int)[0]+v.([]int)[1] != 3 {
			panic("short buffer") // want `^SC: system cacheItemEarly is wrong even under sequential consistency`
		}
		wg.Done()
	}()
	wg.Wait()
}
