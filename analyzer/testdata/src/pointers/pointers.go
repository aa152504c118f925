// Package pointers holds lock-free structures whose goroutines allocate
// nodes and publish them through pointers: a Treiber stack, RCU-style
// publication and a Michael–Scott queue, each with a broken variant.
package pointers

import (
	"sync"
	"sync/atomic"
)

type node struct {
	val  int
	next *node
}

// stack is a Treiber stack.
type stack struct {
	head atomic.Pointer[node]
}

func (s *stack) push(v int) {
	n := &node{val: v}
	for {
		old := s.head.Load()
		n.next = old
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

func (s *stack) pop() (int, bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return 0, false
		}
		if s.head.CompareAndSwap(old, old.next) {
			return old.val, true
		}
	}
}

//fencecheck:system
func treiber() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(1)
		s.push(2)
		wg.Done()
	}()
	go func() {
		s.push(3)
		wg.Done()
	}()
	wg.Wait()
	sum, n := 0, 0
	for {
		v, ok := s.pop()
		if !ok {
			break
		}
		sum += v
		n++
	}
	if n != 3 || sum != 6 {
		panic("lost a node")
	}
}

// plainStack is a stack on a plain pointer: pushes race and lose nodes.
type plainStack struct {
	head *node
}

func (s *plainStack) push(v int) {
	n := &node{val: v}
	n.next = s.head // want `^race: go@\d+ loads s\.head here while go@\d+ stores s\.head`
	s.head = n
}

//fencecheck:system
func plainTreiber() {
	var s plainStack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(1)
		wg.Done()
	}()
	go func() {
		s.push(2)
		wg.Done()
	}()
	wg.Wait()
	n := 0
	for p := s.head; p != nil; p = p.next {
		n++
	}
	if n != 2 {
		panic("lost a node") // want `^SC: system plainTreiber is wrong even under sequential consistency`
	}
}

type config struct {
	a, b int
}

// rcu publishes a filled config through an atomic pointer.
//
//fencecheck:system
func rcu() {
	var cur atomic.Pointer[config]
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c := &config{}
		c.a = 1
		c.b = 2
		cur.Store(c)
		wg.Done()
	}()
	go func() {
		if c := cur.Load(); c != nil && c.a+c.b != 3 {
			panic("torn config")
		}
		wg.Done()
	}()
	wg.Wait()
}

// rcuPlain publishes it through a plain pointer.
//
//fencecheck:system
func rcuPlain() {
	var cur *config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c := &config{}
		c.a = 1 // want `^race: go@\d+ stores c\.a here while go@\d+ loads c\.a`
		c.b = 2 // want `^race: go@\d+ stores c\.b here while go@\d+ loads c\.b`
		cur = c // want `^race: go@\d+ stores cur here while go@\d+ loads cur`
		wg.Done()
	}()
	go func() {
		if c := cur; c != nil && c.a+c.b != 3 {
			panic("torn config")
		}
		wg.Done()
	}()
	wg.Wait()
}

// queue is a Michael–Scott queue with a dummy node.
type queue struct {
	head, tail atomic.Pointer[qnode]
}

type qnode struct {
	val  int
	next atomic.Pointer[qnode]
}

func (q *queue) init() {
	d := &qnode{}
	q.head.Store(d)
	q.tail.Store(d)
}

func (q *queue) enqueue(v int) {
	n := &qnode{val: v}
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

func (q *queue) dequeue() (int, bool) {
	for {
		head := q.head.Load()
		tail := q.tail.Load()
		next := head.next.Load()
		if head != q.head.Load() {
			continue
		}
		if head == tail {
			if next == nil {
				return 0, false
			}
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		v := next.val
		if q.head.CompareAndSwap(head, next) {
			return v, true
		}
	}
}

//fencecheck:system
func michaelScott() {
	var q queue
	q.init()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		q.enqueue(1)
		wg.Done()
	}()
	go func() {
		q.enqueue(2)
		wg.Done()
	}()
	go func() {
		got := 0
		for got < 2 {
			if v, ok := q.dequeue(); ok {
				if v != 1 && v != 2 {
					panic("bad value")
				}
				got++
			}
		}
		wg.Done()
	}()
	wg.Wait()
	if _, ok := q.dequeue(); ok {
		panic("extra value")
	}
}

// treiberMany pushes more nodes in a loop than fencecheck gives the
// allocation: the answer is inconclusive, never a verdict on reused nodes.
//
//fencecheck:system
func treiberMany() { // want `^inconclusive: system treiberMany: the number of objects &node\{val: v\} allocates in a loop of goroutine go@\d+ \(fencecheck models 3\)`
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := range 5 {
			s.push(i)
		}
		wg.Done()
	}()
	go func() {
		s.push(9)
		wg.Done()
	}()
	wg.Wait()
}
