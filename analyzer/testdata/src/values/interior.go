package values

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// elem and list are a ring list with a sentinel inside the list, as
// container/list keeps one: the empty list's root points to itself.
type elem struct {
	next, prev *elem
	val        int
}

type list struct {
	root elem
	len  int
}

func (l *list) lazyInit() {
	if l.root.next == nil {
		l.root.next = &l.root
		l.root.prev = &l.root
	}
}

func (l *list) pushBack(e *elem) {
	l.lazyInit()
	at := l.root.prev
	e.prev = at
	e.next = &l.root
	at.next = e
	l.root.prev = e
	l.len++ // want `^race: go@\d+ stores l\.len here while go@\d+ loads l\.len`
}

func (l *list) sum() int {
	n := 0
	for e := l.root.next; e != nil && e != &l.root; e = e.next {
		n += e.val
	}
	return n
}

// sentinelList has two goroutines push under a lock onto a list whose
// root, a field of the list, is linked to itself.
//
//fencecheck:system
func sentinelList() {
	var mu sync.Mutex
	var l list
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			e := &elem{val: i + 1}
			mu.Lock()
			l.pushBack(e)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if l.len != 2 || l.sum() != 3 {
		panic("lost an element")
	}
}

// sentinelListWrong lets the second goroutine read the length without
// the lock.
//
//fencecheck:system
func sentinelListWrong() {
	var mu sync.Mutex
	var l list
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		l.pushBack(&elem{val: 1})
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		if l.len > 1 {
			panic("more elements than pushes")
		}
	}()
	wg.Wait()
	if l.len != 1 || l.sum() != 1 {
		panic("lost an element")
	}
}

// qnode and mcs are an MCS queue lock whose nodes are the elements of an
// array: each goroutine swaps &nodes[i] into the lock word.
type qnode struct {
	next   atomic.Pointer[qnode]
	locked atomic.Bool
}

type mcs struct {
	tail atomic.Pointer[qnode]
}

func (l *mcs) lock(n *qnode) {
	n.next.Store(nil)
	n.locked.Store(true)
	pred := l.tail.Swap(n)
	if pred == nil {
		return
	}
	pred.next.Store(n)
	for n.locked.Load() {
		runtime.Gosched()
	}
}

func (l *mcs) unlock(n *qnode) {
	next := n.next.Load()
	if next == nil {
		if l.tail.CompareAndSwap(n, nil) {
			return
		}
		for next = n.next.Load(); next == nil; next = n.next.Load() {
			runtime.Gosched()
		}
	}
	next.locked.Store(false)
}

// handOff skips the wait for the predecessor.
func (l *mcs) handOff(n *qnode) {
	n.next.Store(nil)
	n.locked.Store(true)
	if pred := l.tail.Swap(n); pred != nil {
		pred.next.Store(n)
	}
}

// nodeArray counts under an MCS lock whose nodes are array elements.
//
//fencecheck:system
func nodeArray() {
	var l mcs
	var nodes [2]qnode
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			l.lock(&nodes[i])
			n++
			l.unlock(&nodes[i])
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// nodeArrayWrong enters without waiting for the predecessor.
//
//fencecheck:system
func nodeArrayWrong() {
	var l mcs
	var nodes [2]qnode
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			l.handOff(&nodes[i])
			n++ // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores n\)`
			l.unlock(&nodes[i])
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update") // want `^SC: system nodeArrayWrong is wrong even under sequential consistency`
	}
}

// node and stack are a Treiber stack whose head is a *node field reached
// as an unsafe.Pointer cell, as lock-free code written before
// atomic.Pointer does.
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
		old := atomic.LoadPointer(s.headCell()) // want `^race: go@\d+ atomically loads s\.head here while go@\d+ stores s\.head`
		n.next = (*node)(old)
		if atomic.CompareAndSwapPointer(s.headCell(), old, unsafe.Pointer(n)) {
			return
		}
	}
}

func (s *stack) pop() *node {
	for {
		old := atomic.LoadPointer(s.headCell())
		if old == nil {
			return nil
		}
		n := (*node)(old)
		if atomic.CompareAndSwapPointer(s.headCell(), old, unsafe.Pointer(n.next)) {
			return n
		}
	}
}

// pushPlain links with a plain store of the head.
func (s *stack) pushPlain(n *node) {
	n.next = s.head
	s.head = n
}

// unsafeHead pushes from two goroutines and pops in main.
//
//fencecheck:system
func unsafeHead() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.push(&node{val: i + 1})
		}()
	}
	wg.Wait()
	a, b := s.pop(), s.pop()
	if a == nil || b == nil || a.val+b.val != 3 {
		panic("lost a node")
	}
}

// unsafeHeadWrong pushes with plain accesses in one goroutine.
//
//fencecheck:system
func unsafeHeadWrong() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.push(&node{val: 1})
	}()
	go func() {
		defer wg.Done()
		s.pushPlain(&node{val: 2})
	}()
	wg.Wait()
	a, b := s.pop(), s.pop()
	if a == nil || b == nil || a.val+b.val != 3 {
		panic("lost a node") // want `^SC: system unsafeHeadWrong is wrong even under sequential consistency`
	}
}

// headed has its first field at its own address.
type headed struct {
	first struct{ a, b int }
	n     int
}

// sameAddress compares a struct's address with its first field's through
// unsafe.Pointer: they are one address, as in Go, and the panic is reached.
//
//fencecheck:system
func sameAddress() {
	var p headed
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if unsafe.Pointer(&p.first) == unsafe.Pointer(&p.first.a) && unsafe.Pointer(&p) == unsafe.Pointer(&p.first) {
			panic("one address") // want `^SC: system sameAddress is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	wg.Wait()
}

// otherAddress compares fields at different offsets: never equal.
//
//fencecheck:system
func otherAddress() {
	var p headed
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if unsafe.Pointer(&p.first) != unsafe.Pointer(&p.first.a) || unsafe.Pointer(&p.first.b) == unsafe.Pointer(&p.n) {
			panic("never")
		}
	}()
	wg.Wait()
}

// storedAddresses keeps a struct's address and its first field's in
// memory and compares them at run time: Go says equal (one address), and
// fencecheck, which compares locations, refuses the comparison rather than
// answer wrong.
//
//fencecheck:system
func storedAddresses() {
	var p headed
	var t struct{ a, b unsafe.Pointer }
	t.a = unsafe.Pointer(&p.first)
	t.b = unsafe.Pointer(&p.first.a)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if atomic.LoadPointer(&t.a) == atomic.LoadPointer(&t.b) { // want `^unsupported in a fencecheck system: comparing unsafe\.Pointers read at run time when .* share an address`
			panic("one address")
		}
	}()
	wg.Wait()
}
