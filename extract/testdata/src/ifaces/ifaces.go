package ifaces

import (
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
			panic("not two")
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
		cell2 = 5
	}()
	if cell2 == nil {
		panic("not yet")
	}
}

// Shapes have an area.
type shape interface{ area() int }

type square struct{ side int }

func (q *square) area() int { return q.side * q.side }

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
		current2 = &square{side: 2}
	}()
	if current2.area() != 4 {
		panic("wrong area")
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
	c := v.Load().(*config)
	_ = c.n
}

// valueMixed stores values of two types: the second store panics.
//
//fencecheck:system
func valueMixed() {
	var v atomic.Value
	v.Store(&config{n: 1})
	go func() {
		v.Store(7)
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
