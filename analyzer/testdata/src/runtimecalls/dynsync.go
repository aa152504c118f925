package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// A sync.Once and a sync.RWMutex reached through a pointer a goroutine
// loads at run time: the operation on each object it may be.

type lazyNode struct {
	mu   sync.RWMutex
	once sync.Once
	n    int
}

// onceThroughPointer initialises whichever node is current once, under its
// lock: a and b together get 12.
//
//fencecheck:system
func onceThroughPointer() {
	a, b := &lazyNode{}, &lazyNode{}
	var cur atomic.Pointer[lazyNode]
	cur.Store(a)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); cur.Store(b) }()
	go func() {
		defer wg.Done()
		x := cur.Load()
		x.mu.Lock()
		x.n++
		x.once.Do(func() { x.n += 10 })
		x.mu.Unlock()
	}()
	a.mu.RLock()
	_ = a.n
	a.mu.RUnlock()
	wg.Wait()
	if a.n+b.n != 11 {
		panic("lost the initialisation")
	}
}

// onceThroughPointerUnlocked runs the initialisation outside the lock while
// the reader holds only a's read lock.
//
//fencecheck:system
func onceThroughPointerUnlocked() {
	a, b := &lazyNode{}, &lazyNode{}
	var cur atomic.Pointer[lazyNode]
	cur.Store(a)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); cur.Store(b) }()
	go func() {
		defer wg.Done()
		x := cur.Load()
		x.once.Do(func() { x.n += 10 }) // want `^race: go@\d+ stores a.n here while main loads a.n`
		x.mu.RLock()
		_ = x.n
		x.mu.RUnlock()
	}()
	a.mu.RLock()
	_ = a.n
	a.mu.RUnlock()
	wg.Wait()
}
