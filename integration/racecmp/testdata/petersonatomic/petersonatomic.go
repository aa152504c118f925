// Package petersonatomic is Peterson's lock on atomic fields
// (examples/locks).
//
// Expected: race-free.
package petersonatomic

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Peterson is Peterson's algorithm on typed atomics.
type Peterson struct {
	interested [2]atomic.Bool
	victim     atomic.Int32
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *Peterson) Lock(me int) {
	other := 1 - me
	l.interested[me].Store(true)
	l.victim.Store(int32(me))
	for l.interested[other].Load() && l.victim.Load() == int32(me) {
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (l *Peterson) Unlock(me int) {
	l.interested[me].Store(false)
}

// system runs two goroutines through the atomic Peterson lock.
//
//fencecheck:system
func system() {
	var l Peterson
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(me int) {
			l.Lock(me)
			//fencecheck:critical
			l.Unlock(me)
			wg.Done()
		}(i)
	}
	wg.Wait()
}
