// Package msqueue follows the Michael–Scott lock-free queue as Go ports
// write it with atomic.Pointer: a dummy head node, enqueuers that CAS their
// node onto the last node's next and then swing the tail (helping a lagging
// tail along), dequeuers that swing the head and take the value from the
// new dummy.
//
// Expected, by hand: twoEnqueuers is correct and race-free (a node's value
// is written before the CAS that links it and read after a load that
// returns it). linkPlain links the node with a load and a store of next
// instead of a CAS: both enqueuers can see nil and link after the same
// node, so one value is lost (SC finding on the panic; every access is
// atomic, so no race).
package msqueue

import (
	"sync"
	"sync/atomic"
)

type node struct {
	value int
	next  atomic.Pointer[node]
}

// Queue is an unbounded lock-free FIFO.
type Queue struct {
	head atomic.Pointer[node]
	tail atomic.Pointer[node]
}

func NewQueue() *Queue {
	q := &Queue{}
	dummy := &node{}
	q.head.Store(dummy)
	q.tail.Store(dummy)
	return q
}

func (q *Queue) Enqueue(v int) {
	n := &node{value: v}
	for {
		tail := q.tail.Load()
		next := tail.next.Load()
		if tail != q.tail.Load() {
			continue
		}
		if next != nil {
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		if tail.next.CompareAndSwap(nil, n) {
			q.tail.CompareAndSwap(tail, n)
			return
		}
	}
}

func (q *Queue) Dequeue() (int, bool) {
	for {
		head := q.head.Load()
		tail := q.tail.Load()
		next := head.next.Load()
		if head != q.head.Load() {
			continue
		}
		if next == nil {
			return 0, false
		}
		if head == tail {
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		if q.head.CompareAndSwap(head, next) {
			return next.value, true
		}
	}
}

//fencecheck:system
func twoEnqueuers() {
	q := NewQueue()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.Enqueue(1)
		wg.Done()
	}()
	go func() {
		q.Enqueue(2)
		wg.Done()
	}()
	wg.Wait()
	a, _ := q.Dequeue()
	b, _ := q.Dequeue()
	if a+b != 3 {
		panic("lost a value")
	}
}

// enqueueLinkPlain links without a CAS.
func (q *Queue) enqueueLinkPlain(v int) {
	n := &node{value: v}
	for {
		tail := q.tail.Load()
		next := tail.next.Load()
		if next != nil {
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		tail.next.Store(n)
		q.tail.CompareAndSwap(tail, n)
		return
	}
}

//fencecheck:system
func linkPlain() {
	q := NewQueue()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.enqueueLinkPlain(1)
		wg.Done()
	}()
	go func() {
		q.enqueueLinkPlain(2)
		wg.Done()
	}()
	wg.Wait()
	a, _ := q.Dequeue()
	b, _ := q.Dequeue()
	if a+b != 3 {
		panic("lost a value") // want `^SC: system linkPlain is wrong even under sequential consistency: `
	}
}
