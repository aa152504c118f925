// Package caslock runs four goroutines through a CAS spin lock three times
// each, with a plain release as hand-written spin locks often have.
//
// Expected, by hand: under the Go memory model the plain release races
// with the CAS, and the counter it protects races too. Under x86-TSO alone
// (-races=false) the lock is correct: the CAS is a locked instruction, and
// the release store reaches memory after the counter's store.
package caslock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Lock is a spin lock with a plain release.
type Lock struct {
	held int32
}

// Acquire spins until it swaps held from 0 to 1.
func (l *Lock) Acquire() {
	for !atomic.CompareAndSwapInt32(&l.held, 0, 1) {
		runtime.Gosched()
	}
}

// Release stores 0, plainly.
func (l *Lock) Release() {
	l.held = 0
}

//fencecheck:system
func casLockSystem() {
	var l Lock
	var count int32
	var wg sync.WaitGroup
	wg.Add(4)
	for range 4 {
		go func() {
			for range 3 {
				l.Acquire()
				count++
				l.Release()
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 12 {
		panic("lost update")
	}
}
