// Package ifaces has systems whose goroutines carry interface values: a
// Treiber stack of any payloads, interface cells, atomic.Value,
// errors.New sentinels and function values chosen at run time.
package ifaces

import (
	"errors"
	"sync"
	"sync/atomic"
)

// A Treiber stack whose nodes carry payloads of type any.
type node struct {
	val  any
	next *node
}

type stack struct {
	head atomic.Pointer[node]
}

func (s *stack) push(v any) {
	n := &node{val: v}
	for {
		old := s.head.Load()
		n.next = old
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

func (s *stack) pop() (any, bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return nil, false
		}
		if s.head.CompareAndSwap(old, old.next) {
			return old.val, true
		}
	}
}

// anyStack pushes an int, a string and a bool from two goroutines; the
// pops after the wait see all three, told apart by a type switch.
//
//fencecheck:system
func anyStack() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(1)
		s.push("two")
		wg.Done()
	}()
	go func() {
		s.push(true)
		wg.Done()
	}()
	wg.Wait()
	sum := 0
	for {
		v, ok := s.pop()
		if !ok {
			break
		}
		switch x := v.(type) {
		case int:
			sum += x
		case string:
			if x == "two" {
				sum += 2
			}
		case bool:
			if x {
				sum += 4
			}
		}
	}
	if sum != 7 {
		panic("lost a payload")
	}
}

// anyStackWrong expects the int payload to be 2: a wrong assertion.
//
//fencecheck:system
func anyStackWrong() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(1)
		wg.Done()
	}()
	go func() {
		s.push("one")
		wg.Done()
	}()
	wg.Wait()
	for {
		v, ok := s.pop()
		if !ok {
			break
		}
		if n, isInt := v.(int); isInt && n != 2 {
			panic("not two") // want `^SC: system anyStackWrong is wrong even under sequential consistency`
		}
	}
}

var cell any

// cellAfterWait: a goroutine stores an interface value in a shared cell,
// read after the wait.
//
//fencecheck:system
func cellAfterWait() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		cell = 5
		wg.Done()
	}()
	wg.Wait()
	if v, ok := cell.(int); !ok || v != 5 {
		panic("lost the store")
	}
}

var cell2 any

// cellNoWait reads the cell without waiting: it may still be nil.
//
//fencecheck:system
func cellNoWait() {
	go func() {
		cell2 = 5 // want `^race: go@\d+ stores cell2 here while main loads cell2`
	}()
	if cell2 == nil {
		panic("not yet") // want `^SC: system cellNoWait is wrong even under sequential consistency`
	}
}

// Shapes have an area.
type shape interface{ area() int }

type square struct{ side int }

func (q *square) area() int { return q.side * q.side } // want `^race: main loads square\.side here while go@\d+ stores square\.side`

type line int

func (l line) area() int { return 0 }

var current shape

// methodSplit calls a method on an interface value a goroutine stored: the
// dynamic type is *square or line.
//
//fencecheck:system
func methodSplit() {
	current = line(3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		current = &square{side: 2}
		wg.Done()
	}()
	wg.Wait()
	if current.area() != 4 {
		panic("wrong area")
	}
}

var current2 shape

// methodRace calls the method without waiting: it may see the line.
//
//fencecheck:system
func methodRace() {
	current2 = line(3)
	go func() {
		current2 = &square{side: 2} // want `^race: go@\d+ stores current2 here while main loads current2`
	}()
	if current2.area() != 4 {
		panic("wrong area") // want `^SC: system methodRace is wrong even under sequential consistency`
	}
}

type config struct{ n int }

// valueHolder: an atomic.Value holding a *config, replaced by a goroutine.
//
//fencecheck:system
func valueHolder() {
	var v atomic.Value
	v.Store(&config{n: 1})
	go func() {
		v.Store(&config{n: 2})
	}()
	c := v.Load().(*config)
	if c.n != 1 && c.n != 2 {
		panic("torn config")
	}
}

// valueUnset loads before any store: nil, and the assertion panics.
//
//fencecheck:system
func valueUnset() {
	var v atomic.Value
	go func() {
		v.Store(&config{n: 2})
	}()
	c := v.Load().(*config) // want `^SC: system valueUnset is wrong even under sequential consistency: the bad state interface conversion: interface is not \*config`
	_ = c.n
}

// valueMixed stores values of two types: the second store panics.
//
//fencecheck:system
func valueMixed() {
	var v atomic.Value
	v.Store(&config{n: 1})
	go func() {
		v.Store(7) // want `^SC: system valueMixed is wrong even under sequential consistency: the bad state sync/atomic: store of inconsistently typed value into Value`
	}()
	_ = v.Load()
}

// valueSwapCAS swaps and compares-and-swaps integer payloads.
//
//fencecheck:system
func valueSwapCAS() {
	var v atomic.Value
	v.Store(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		v.CompareAndSwap(1, 2)
		wg.Done()
	}()
	go func() {
		v.CompareAndSwap(1, 3)
		wg.Done()
	}()
	wg.Wait()
	if old := v.Swap(4); old != 2 && old != 3 {
		panic("both or neither swapped")
	}
}

var errClosed = errors.New("closed")
var errFull = errors.New("full")

type box struct {
	mu     sync.Mutex
	closed bool
	n      int
}

func (b *box) put() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errClosed
	}
	if b.n == 1 {
		return errFull
	}
	b.n++
	return nil
}

func (b *box) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
}

// sentinel: put returns nil, errFull or errClosed, told apart by identity.
//
//fencecheck:system
func sentinel() {
	var b box
	var wg sync.WaitGroup
	var e1, e2 error
	wg.Add(2)
	go func() {
		e1 = b.put()
		wg.Done()
	}()
	go func() {
		b.close()
		e2 = b.put()
		wg.Done()
	}()
	wg.Wait()
	if !errors.Is(e2, errClosed) {
		panic("put after close")
	}
	if e1 != nil && e1 != errClosed {
		panic("e1")
	}
}

// sentinelWrong expects the first put to succeed: close may come first.
//
//fencecheck:system
func sentinelWrong() {
	var b box
	var wg sync.WaitGroup
	var e1 error
	wg.Add(2)
	go func() {
		e1 = b.put()
		wg.Done()
	}()
	go func() {
		b.close()
		wg.Done()
	}()
	wg.Wait()
	if e1 == errClosed {
		panic("closed first") // want `^SC: system sentinelWrong is wrong even under sequential consistency`
	}
}

// A Group runs functions and keeps the first error.
type Group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

// Go runs f in a goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err }) // want `^race: go@\d+ stores g\.err here while main loads g\.err`
		}
	}()
}

// Wait waits for the functions and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

var errBoom = errors.New("boom")

func run(g *Group, fail bool) {
	g.Go(func() error {
		if fail {
			return errBoom
		}
		return nil
	})
}

// group: one of the functions fails, Wait returns its error.
//
//fencecheck:system
func group() {
	var g Group
	run(&g, true)
	run(&g, false)
	if err := g.Wait(); err != errBoom {
		panic("lost the error")
	}
}

// groupNoWait reads the error without waiting.
//
//fencecheck:system
func groupNoWait() {
	var g Group
	run(&g, true)
	if g.err != errBoom {
		panic("not yet") // want `^SC: system groupNoWait is wrong even under sequential consistency`
	}
	g.Wait()
}

// funcLocal calls a function value chosen at run time.
//
//fencecheck:system
func funcLocal() {
	var flag atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		flag.Store(true)
		wg.Done()
	}()
	wg.Wait()
	f := func() int { return 1 }
	if flag.Load() {
		f = func() int { return 2 }
	}
	if f() != 2 {
		panic("wrong function")
	}
}
