// Package qspinnodes follows the queued spinlock of the Linux kernel
// (kernel/locking/qspinlock.c) as Go ports write it: the MCS nodes a
// locker queues are not allocated but taken from a static array, one per
// CPU (here one per goroutine), and the lock word holds &nodes[i] of the
// last waiter; a waiter links behind its predecessor and spins on its own
// node, and the owner hands the lock to its successor.
//
// Expected, by hand: perCPUNodes is correct and race-free. noSpin
// links behind its predecessor but does not spin on its node: both
// goroutines can be in the critical section at once (race finding on the
// counter).
package qspinnodes

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type mcsNode struct {
	next   atomic.Pointer[mcsNode]
	locked atomic.Bool
}

type qspin struct {
	tail atomic.Pointer[mcsNode]
}

func (l *qspin) lock(n *mcsNode) {
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

func (l *qspin) unlock(n *mcsNode) {
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
func perCPUNodes() {
	var l qspin
	var nodes [2]mcsNode
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for cpu := range 2 {
		go func() {
			l.lock(&nodes[cpu])
			n++
			l.unlock(&nodes[cpu])
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// lockNoSpin links behind the predecessor but does not wait for it.
func (l *qspin) lockNoSpin(n *mcsNode) {
	n.next.Store(nil)
	n.locked.Store(true)
	if pred := l.tail.Swap(n); pred != nil {
		pred.next.Store(n)
	}
}

//fencecheck:system
func noSpin() {
	var l qspin
	var nodes [2]mcsNode
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for cpu := range 2 {
		go func() {
			l.lockNoSpin(&nodes[cpu])
			n++ // want `^race: go@\d+\(cpu=0\) and go@\d+\(cpu=1\) can both reach this access \(it stores n\)`
			l.unlock(&nodes[cpu])
			wg.Done()
		}()
	}
	wg.Wait()
}
