// Package nodearrayhandoff counts under an MCS queue lock whose nodes are the
// elements of an array: each goroutine swaps &nodes[i] into the lock
// word; a goroutine enters without waiting for its predecessor.
//
// Expected: racy.
package nodearrayhandoff

import (
	"runtime"
	"sync"
	"sync/atomic"
)

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
	_ = runtime.NumGoroutine
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

// system: two goroutines count under the lock.
//
//fencecheck:system
func system() {
	var l mcs
	var nodes [2]qnode
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			l.lock(&nodes[i])
			n++
			l.unlock(&nodes[i])
			wg.Done()
		}()
	}
	wg.Wait()
	_ = n
}
