// Package unsafehead pushes onto a Treiber stack whose head, a *node field,
// is reached as an unsafe.Pointer cell
// ((*unsafe.Pointer)(unsafe.Pointer(&s.head))); both push with a compare-and-swap.
//
// Expected: race-free.
package unsafehead

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type node struct {
	next *node
	val  int
}

type stack struct {
	head *node
}

func (s *stack) headCell() *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Pointer(&s.head))
}

func (s *stack) push(n *node) {
	for {
		old := atomic.LoadPointer(s.headCell())
		n.next = (*node)(old)
		if atomic.CompareAndSwapPointer(s.headCell(), old, unsafe.Pointer(n)) {
			return
		}
	}
}

func (s *stack) pushPlain(n *node) {
	n.next = s.head
	s.head = n
}

// system: two goroutines push.
//
//fencecheck:system
func system() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(&node{val: 1})
		wg.Done()
	}()
	go func() {
		s.push(&node{val: 2})
		wg.Done()
	}()
	wg.Wait()
}
