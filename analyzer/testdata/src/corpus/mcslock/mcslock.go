// Package mcslock follows the MCS queue lock (Mellor-Crummey and Scott) as
// Go ports write it: each locker brings a node, swaps itself into the tail
// with atomic.Pointer.Swap, links behind its predecessor and spins on its
// own locked flag; Unlock hands the lock to the successor, or, when there
// is none, CASes the tail back to nil, waiting for a successor that has
// swapped but not linked yet.
//
// Expected, by hand: mcsCounter is correct and race-free. loadStoreTail
// enqueues with a load and a store of the tail instead of a swap: both
// goroutines can see nil and enter at once (race finding on n++). The lost
// update is not reachable as a panic: whichever goroutine stored the tail
// first then waits in Unlock for a successor that never links, so main
// never gets past wg.Wait (a deadlock finding, no SC finding).
package mcslock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type qnode struct {
	next   atomic.Pointer[qnode]
	locked atomic.Bool
}

// MCS is the lock: the last node in the queue.
type MCS struct {
	tail atomic.Pointer[qnode]
}

func (l *MCS) Lock(n *qnode) {
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

func (l *MCS) Unlock(n *qnode) {
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

//fencecheck:system
func mcsCounter() {
	var l MCS
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			me := &qnode{}
			l.Lock(me)
			n++
			l.Unlock(me)
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// lockLoadStore joins the queue without a swap.
func (l *MCS) lockLoadStore(n *qnode) {
	n.next.Store(nil)
	n.locked.Store(true)
	pred := l.tail.Load()
	l.tail.Store(n)
	if pred == nil {
		return
	}
	pred.next.Store(n)
	for n.locked.Load() {
		runtime.Gosched()
	}
}

//fencecheck:system
func loadStoreTail() {
	var l MCS
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			me := &qnode{}
			l.lockLoadStore(me)
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\)`
			l.Unlock(me)
			wg.Done()
		}()
	}
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system loadStoreTail\)$`
	if n != 2 {
		panic("lost update")
	}
}
