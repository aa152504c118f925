package pointers

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type node struct {
	val  int
	next *node
}

// A Treiber stack.
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

// A Treiber stack whose push is not atomic: a node may be lost.
type plainStack struct {
	head atomic.Pointer[node]
}

func (s *plainStack) push(v int) {
	n := &node{val: v}
	n.next = s.head.Load()
	s.head.Store(n)
}

//fencecheck:system
func lostPush() {
	var s plainStack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.push(1); wg.Done() }()
	go func() { s.push(2); wg.Done() }()
	wg.Wait()
	n := 0
	for p := s.head.Load(); p != nil; p = p.next {
		n++
	}
	if n != 2 {
		panic("lost a node")
	}
}

type config struct {
	a, b int
}

// RCU-style publication: the reader sees a filled object or nothing.
//
//fencecheck:system
func publish() {
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
		if c := cur.Load(); c != nil {
			if c.a+c.b != 3 {
				panic("torn config")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// The same with an unsafe.Pointer.
//
//fencecheck:system
func publishUnsafe() {
	var cur unsafe.Pointer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c := &config{a: 1, b: 2}
		atomic.StorePointer(&cur, unsafe.Pointer(c))
		wg.Done()
	}()
	go func() {
		if c := (*config)(atomic.LoadPointer(&cur)); c != nil {
			if c.a+c.b != 3 {
				panic("torn config")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// A plain pointer: the reader may follow it into the writer's fields
// before they are written (a data race; under TSO the stores stay in
// order, so only the race shows).
//
//fencecheck:system
func publishPlain() {
	var cur *config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c := &config{}
		c.a = 1
		c.b = 2
		cur = c
		wg.Done()
	}()
	go func() {
		if c := cur; c != nil {
			if c.a+c.b != 3 {
				panic("torn config")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// Publication before the fields are filled: a bug under SC.
//
//fencecheck:system
func publishEarly() {
	var cur atomic.Pointer[config]
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c := &config{}
		cur.Store(c)
		c.a = 1
		c.b = 2
		wg.Done()
	}()
	go func() {
		if c := cur.Load(); c != nil {
			if c.a+c.b != 3 {
				panic("torn config")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// A nil dereference is a panic.
//
//fencecheck:system
func nilDeref() {
	var cur atomic.Pointer[config]
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		cur.Store(&config{a: 1})
		wg.Done()
	}()
	go func() {
		c := cur.Load()
		_ = c.a
		wg.Done()
	}()
	wg.Wait()
}

// A Michael–Scott queue with a dummy node.
type queue struct {
	head, tail atomic.Pointer[qnode]
}

type qnode struct {
	val  int
	next atomic.Pointer[qnode]
}

func newQueue() *queue {
	q := &queue{}
	d := &qnode{}
	q.head.Store(d)
	q.tail.Store(d)
	return q
}

func (q *queue) enqueue(v int, lossy bool) {
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
		if lossy {
			tail.next.Store(n)
			q.tail.CompareAndSwap(tail, n)
			return
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

// Two producers, then the consumer takes both items.
//
//fencecheck:system
func msQueue() {
	const lossy = false
	q := newQueue()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.enqueue(1, lossy)
		wg.Done()
	}()
	go func() {
		q.enqueue(2, lossy)
		wg.Done()
	}()
	wg.Wait()
	a, ok1 := q.dequeue()
	b, ok2 := q.dequeue()
	if !ok1 || !ok2 || a+b != 3 {
		panic("lost an item")
	}
}

// An enqueue that stores the link instead of swapping it loses an item.
//
//fencecheck:system
func msLost() {
	const lossy = true
	q := newQueue()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.enqueue(1, lossy)
		wg.Done()
	}()
	go func() {
		q.enqueue(2, lossy)
		wg.Done()
	}()
	wg.Wait()
	a, ok1 := q.dequeue()
	b, ok2 := q.dequeue()
	if !ok1 || !ok2 || a+b != 3 {
		panic("lost an item")
	}
}

// Pushes in a loop of a goroutine: each takes a fresh node.
//
//fencecheck:system
func treiberLoop() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := 1; i <= 2; i++ {
			s.push(i)
		}
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

// A node reused across iterations would hide this lost push.
//
//fencecheck:system
func lostPushLoop() {
	var s plainStack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := 0; i < 2; i++ {
			s.push(1)
		}
		wg.Done()
	}()
	go func() { s.push(1); wg.Done() }()
	wg.Wait()
	n := 0
	for p := s.head.Load(); p != nil; p = p.next {
		n++
	}
	if n != 3 {
		panic("lost a node")
	}
}

type counter interface{ inc() }

type atomicCounter struct{ n atomic.Int32 }

func (c *atomicCounter) inc() { c.n.Add(1) }

type plainCounter struct{ n int32 }

func (c *plainCounter) inc() { c.n++ }

// Method calls through an interface whose dynamic type is known.
//
//fencecheck:system
func viaInterface() {
	var c counter = &atomicCounter{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.inc()
			wg.Done()
		}()
	}
	wg.Wait()
	if c.(*atomicCounter).n.Load() != 2 {
		panic("lost an increment")
	}
}

// The same with a plain counter loses an increment.
//
//fencecheck:system
func viaInterfacePlain() {
	var c counter = &plainCounter{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.inc()
			wg.Done()
		}()
	}
	wg.Wait()
	if p, ok := c.(*plainCounter); !ok || p.n != 2 {
		panic("lost an increment")
	}
}
