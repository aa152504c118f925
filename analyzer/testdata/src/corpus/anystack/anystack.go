// Package anystack follows the lock-free stack of
// github.com/golang-design/lockfree: items of interface{} payloads linked
// through unsafe.Pointer, pushed and popped by CompareAndSwapPointer in a
// retry loop, with an atomic length; Pop returns nil when the stack is
// empty.
//
// Expected, by hand: mixedPayloads is correct and race-free (an item's
// fields are written before the CAS that publishes it and read after the
// load that returns it; the payloads, an int, a string and a bool, are
// told apart by a type switch after the wait). plainPush links with a load
// and a plain store of top: the two pushes race on top (race finding) and
// one item can be lost (SC finding on the panic).
package anystack

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Stack implements a lock-free stack of interface{} values.
type Stack struct {
	top unsafe.Pointer
	len uint64
}

type directItem struct {
	next unsafe.Pointer
	v    interface{}
}

// Push pushes a value on top of the stack.
func (s *Stack) Push(v interface{}) {
	item := directItem{v: v}
	var top unsafe.Pointer
	for {
		top = atomic.LoadPointer(&s.top)
		item.next = top
		if atomic.CompareAndSwapPointer(&s.top, top, unsafe.Pointer(&item)) {
			atomic.AddUint64(&s.len, 1)
			return
		}
	}
}

// Pop pops the value on top of the stack, nil if it is empty.
func (s *Stack) Pop() interface{} {
	var top, next unsafe.Pointer
	var item *directItem
	for {
		top = atomic.LoadPointer(&s.top)
		if top == nil {
			return nil
		}
		item = (*directItem)(top)
		next = atomic.LoadPointer(&item.next)
		if atomic.CompareAndSwapPointer(&s.top, top, next) {
			atomic.AddUint64(&s.len, ^uint64(0))
			return item.v
		}
	}
}

func tally(v interface{}) int {
	switch x := v.(type) {
	case int:
		return x
	case string:
		if x == "two" {
			return 2
		}
	case bool:
		if x {
			return 4
		}
	}
	return 0
}

//fencecheck:system
func mixedPayloads() {
	var s Stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.Push(1)
		s.Push("two")
		wg.Done()
	}()
	go func() {
		s.Push(true)
		wg.Done()
	}()
	wg.Wait()
	sum := 0
	for v := s.Pop(); v != nil; v = s.Pop() {
		sum += tally(v)
	}
	if sum != 7 || atomic.LoadUint64(&s.len) != 0 {
		panic("lost an item")
	}
}

// pushPlain links the item with a plain store of top.
func (s *Stack) pushPlain(v interface{}) {
	item := directItem{v: v}
	item.next = atomic.LoadPointer(&s.top) // want `^race: go@\d+ atomically loads s\.top here while go@\d+ stores s\.top`
	s.top = unsafe.Pointer(&item)
	atomic.AddUint64(&s.len, 1)
}

//fencecheck:system
func plainPush() {
	var s Stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.pushPlain(1)
		wg.Done()
	}()
	go func() {
		s.pushPlain("two")
		wg.Done()
	}()
	wg.Wait()
	sum := 0
	for v := s.Pop(); v != nil; v = s.Pop() {
		sum += tally(v)
	}
	if sum != 3 {
		panic("lost an item") // want `^SC: system plainPush is wrong even under sequential consistency`
	}
}
