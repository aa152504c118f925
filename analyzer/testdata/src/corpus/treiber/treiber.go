// Package treiber follows the Treiber stack as older Go libraries write it
// (before atomic.Pointer): the head an unsafe.Pointer, nodes published and
// unlinked by atomic.CompareAndSwapPointer in a retry loop.
//
// Expected, by hand: pushPop is correct and race-free (a node's fields are
// written before the CAS that publishes it and read after a load that
// returns it; with no node reused there is no ABA). plainHead links with a
// load and a plain store of head: the two pushes race on head (race
// finding) and one node can be lost (SC finding on the panic); package
// treiberptr is the same stack on atomic.Pointer.
package treiber

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type node struct {
	value int
	next  unsafe.Pointer // *node
}

// Stack is a lock-free LIFO.
type Stack struct {
	head unsafe.Pointer // *node
}

func (s *Stack) Push(v int) {
	n := &node{value: v}
	for {
		old := atomic.LoadPointer(&s.head)
		n.next = old
		if atomic.CompareAndSwapPointer(&s.head, old, unsafe.Pointer(n)) {
			return
		}
	}
}

func (s *Stack) Pop() (int, bool) {
	for {
		old := atomic.LoadPointer(&s.head)
		if old == nil {
			return 0, false
		}
		n := (*node)(old)
		if atomic.CompareAndSwapPointer(&s.head, old, n.next) {
			return n.value, true
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

// pushPlain links the node with a plain store.
func (s *Stack) pushPlain(v int) {
	n := &node{value: v}
	n.next = atomic.LoadPointer(&s.head) // want `^race: go@\d+ atomically loads s\.head here while go@\d+ stores s\.head`
	s.head = unsafe.Pointer(n)
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
		panic("lost a node") // want `^SC: system plainHead is wrong even under sequential consistency`
	}
}
