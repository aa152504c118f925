// Package soundness holds systems written to break the lowering: each one
// has a known x86-TSO and SC verdict.
package soundness

import (
	"sync"
	"sync/atomic"
)

type cell struct {
	f, a, b int32
	x, y    int32
	n       int32 //fencecheck:range 0..2
	flag    bool
}

// doubleLoad reads l.f twice: the two reads may see different values.
//
//fencecheck:system
func doubleLoad() {
	var l cell
	go func() { l.f = 1 }()
	go func() {
		x := l.f
		if x == 0 && l.f == 1 {
			panic("two reads differ")
		}
	}()
}

// aliasSB is store buffering through pointer aliases.
//
//fencecheck:system
func aliasSB() {
	var l cell
	go func() {
		p := &l.a
		*p = 1
		if l.b == 0 {
			q := &l.b
			if *q == 0 {
				l.x = 1
			}
		}
	}()
	go func() {
		l.b = 1
		p := &l.a
		if *p == 0 {
			if l.x == 1 {
				panic("both read 0")
			}
		}
	}()
}

// aliasForward reads its own buffered store through another alias.
//
//fencecheck:system
func aliasForward() {
	var l cell
	go func() {
		p := &l.a
		*p = 1
		if l.a != 1 {
			panic("own store lost")
		}
	}()
	go func() { l.b = 2 }()
}

// compound is two non-atomic increments: one may be lost.
//
//fencecheck:system
func compound() {
	var l cell
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { l.n += 1; wg.Done() }()
	go func() { l.n += 1; wg.Done() }()
	wg.Wait()
	if l.n != 2 {
		panic("lost update")
	}
}

// swapSelf swaps two fields in one goroutine: both right-hand sides are
// read before either store.
//
//fencecheck:system
func swapSelf() {
	var l cell
	l.x, l.y = 1, 2
	go func() {
		l.x, l.y = l.y, l.x
		if l.x != 2 || l.y != 1 {
			panic("not swapped")
		}
	}()
}

// swapObserve: the stores of a swap leave in program order (x first), so an
// observer reading y then x never sees new y with old x.
//
//fencecheck:system
func swapObserve() {
	var l cell
	l.x, l.y = 1, 2
	go func() { l.x, l.y = l.y, l.x }()
	go func() {
		if l.y == 1 && l.x == 1 {
			panic("y new, x old")
		}
	}()
}

// swapTorn: reading x then y can see x new and y old.
//
//fencecheck:system
func swapTorn() {
	var l cell
	l.x, l.y = 1, 2
	go func() { l.x, l.y = l.y, l.x }()
	go func() {
		if l.x == 2 && l.y == 2 {
			panic("x new, y old")
		}
	}()
}

// setupStore: a store of the setup before the spawn is seen by every process.
//
//fencecheck:system
func setupStore() {
	var l cell
	l.a = 1
	go func() {
		if l.a != 1 {
			panic("setup store unseen")
		}
	}()
}

// mainStore: a store of main after the spawns races with the process.
//
//fencecheck:system
func mainStore() {
	var l cell
	go func() {
		if l.a == 2 {
			panic("saw main's store")
		}
	}()
	l.a = 2
}

type slot struct{ v, w int32 }

type table struct {
	s   [2]slot
	idx int32
}

// dynamicStruct writes l.s[i].w through an index read at run time.
//
//fencecheck:system
func dynamicStruct() {
	var t table
	go func() { t.idx = 1 }()
	go func() {
		i := t.idx
		t.s[i].w = 1
		if t.s[1].w == 1 {
			panic("wrote slot 1")
		}
	}()
}

type flags struct {
	b       atomic.Bool
	won     atomic.Int64
	old     atomic.Int32
	swapped atomic.Int32
}

// casOnce: exactly one CompareAndSwap succeeds.
//
//fencecheck:system
func casOnce() {
	var f flags
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			if f.b.CompareAndSwap(false, true) {
				f.won.Add(1)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if f.won.Load() != 1 {
		panic("not exactly one winner")
	}
}

// swapOld: Swap returns the old value; exactly one sees 0.
//
//fencecheck:system
func swapOld() {
	var f flags
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			if f.old.Swap(1) == 0 {
				f.swapped.Add(1)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if f.swapped.Load() != 1 {
		panic("not exactly one saw 0")
	}
}

// addNew: Add returns the new value.
//
//fencecheck:system
func addNew() {
	var f flags
	go func() {
		if f.won.Add(1) != 1 {
			panic("Add did not return the new value")
		}
	}()
}

type guarded struct {
	mu sync.Mutex
	n  int32 //fencecheck:range 0..2
}

// mutexCount: increments under a mutex are not lost.
//
//fencecheck:system
func mutexCount() {
	var g guarded
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			g.mu.Lock()
			g.n++
			g.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if g.n != 2 {
		panic("lost update under mutex")
	}
}

// waitOrder: Wait sees the stores before Done.
//
//fencecheck:system
func waitOrder() {
	var l cell
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { l.a = 1; wg.Done() }()
	wg.Wait()
	if l.a != 1 {
		panic("store before Done unseen")
	}
}

func check(v int32) {
	if v == 1 {
		panic("inlined panic")
	}
}

// inlinedPanic panics inside a called function.
//
//fencecheck:system
func inlinedPanic() {
	var l cell
	go func() { l.a = 1 }()
	go func() { check(l.a) }()
}

// notBool reads a bool field through !.
//
//fencecheck:system
func notBool() {
	var l cell
	go func() { l.flag = true }()
	go func() {
		if !l.flag {
			return
		}
		panic("flag seen")
	}()
}

// narrow converts a run-time 200 to int8: Go wraps it to -56.
//
//fencecheck:system
func narrow() {
	var l cell
	l.a = 200
	go func() {
		if int8(l.a) < 0 {
			panic("wrapped")
		}
	}()
}

type small struct {
	v int8
}

// guardOverflow: v+1 of a run-time int8 127 wraps to -128 in Go.
//
//fencecheck:system
func guardOverflow() {
	var s small
	s.v = 127
	go func() {
		v := s.v
		if v+1 < v {
			panic("wrapped")
		}
	}()
}

// divZero divides by a run-time zero.
//
//fencecheck:system
func divZero() {
	var l cell
	go func() {
		if 10/l.a == 1 {
			return
		}
	}()
}

// shadow: the inner x is a different variable.
//
//fencecheck:system
func shadow() {
	var l cell
	l.a, l.b = 1, 2
	go func() {
		x := l.a
		{
			x := l.b
			_ = x
		}
		if x != 1 {
			panic("shadowed")
		}
	}()
}

// spinMP is message passing with a spin loop and break.
//
//fencecheck:system
func spinMP() {
	var l cell
	go func() { l.a = 1; l.f = 1 }()
	go func() {
		for {
			if l.f == 1 {
				break
			}
		}
		if l.a != 1 {
			panic("data not seen")
		}
	}()
}

// gotoLoop reads twice with goto.
//
//fencecheck:system
func gotoLoop() {
	var l cell
	go func() { l.a = 1 }()
	go func() {
		n := 0
	again:
		if l.a == 0 && n < 1 {
			n++
			goto again
		}
		if n == 1 && l.a == 1 {
			panic("changed between reads")
		}
	}()
}

// switchTag evaluates the tag once.
//
//fencecheck:system
func switchTag() {
	var l cell
	go func() { l.a = 1 }()
	go func() {
		switch l.a {
		case 0:
		case 1:
			panic("saw 1")
		}
	}()
}

// switchOnce: a tag read once never matches two cases.
//
//fencecheck:system
func switchOnce() {
	var l cell
	go func() { l.a = 1; l.a = 2 }()
	go func() {
		hits := 0
		switch v := l.a; {
		case v == 1:
			hits++
			fallthrough
		case v == 2 && hits == 1:
			panic("two values of one read")
		}
	}()
}

// captureLate: a closure sees the value of a captured variable at the
// spawn, not at its creation.
//
//fencecheck:system
func captureLate() {
	x := int32(0)
	f := func() {
		if x == 1 {
			panic("late value")
		}
	}
	x = 1
	go f()
}

func pick(l *cell) int32 {
	if l.a == 1 {
		return 5
	}
	return 7
}

// multiReturn: an inlined call with two returns.
//
//fencecheck:system
func multiReturn() {
	var l cell
	go func() { l.a = 1 }()
	go func() {
		if pick(&l) == 5 {
			panic("returned 5")
		}
	}()
}

// localCopy: a goroutine-local copy is not shared.
//
//fencecheck:system
func localCopy() {
	var l cell
	go func() {
		var m cell
		m.a = l.a
		l.a = 1
		if m.a == 1 {
			panic("local alias")
		}
	}()
}

// setupPointer: a pointer stored by the setup is followed by the process.
//
//fencecheck:system
func setupPointer() {
	var l cell
	var p *int32 = &l.a
	p = &l.b
	go func() { *p = 1 }()
	go func() {
		if l.b == 1 {
			panic("wrote b")
		}
	}()
}

// loopRead reads in a loop inside an inlined function and uses it after.
//
//fencecheck:system
func loopRead() {
	var l cell
	go func() { l.a = 1; l.a = 2 }()
	go func() {
		var v int32
		for i := 0; i < 2; i++ {
			v = l.a
		}
		if v == 1 {
			panic("second read saw 1")
		}
	}()
}
