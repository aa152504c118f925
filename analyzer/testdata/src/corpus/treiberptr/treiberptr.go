// Package treiberptr is the Treiber stack of package treiber written with
// atomic.Pointer[node], as Go libraries write it since Go 1.19 (the
// unsafe.Pointer form is not accepted yet; see package treiber).
//
// Expected, by hand: pushPop is correct and race-free (a node's fields are
// written before the CAS that publishes it and read after a load that
// returns it; with no node reused there is no ABA). plainHead links with a
// load and a store of head instead of a CAS: one node can be lost (SC
// finding on the panic; every access to head is atomic, so no race).
package treiberptr

import (
	"sync"
	"sync/atomic"
)

type node struct {
	value int
	next  *node
}

// Stack is a lock-free LIFO.
type Stack struct {
	head atomic.Pointer[node]
}

func (s *Stack) Push(v int) {
	n := &node{value: v}
	for {
		old := s.head.Load()
		n.next = old
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

func (s *Stack) Pop() (int, bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return 0, false
		}
		if s.head.CompareAndSwap(old, old.next) {
			return old.value, true
		}
	}
}

//fencecheck:system
func pushPop() {
	var s Stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.Push(1)
		wg.Done()
	}()
	go func() {
		s.Push(2)
		if v, ok := s.Pop(); !ok || v == 0 {
			panic("popped nothing")
		}
		wg.Done()
	}()
	wg.Wait()
	if v, ok := s.Pop(); !ok || v == 0 {
		panic("lost a node")
	}
}

// pushPlain links the node with a load and a store.
func (s *Stack) pushPlain(v int) {
	n := &node{value: v}
	n.next = s.head.Load()
	s.head.Store(n)
}

//fencecheck:system
func plainHead() {
	var s Stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.pushPlain(1)
		wg.Done()
	}()
	go func() {
		s.pushPlain(2)
		wg.Done()
	}()
	wg.Wait()
	a, _ := s.Pop()
	b, _ := s.Pop()
	if a+b != 3 {
		panic("lost a node") // want `^SC: system plainHead is wrong even under sequential consistency: `
	}
}
