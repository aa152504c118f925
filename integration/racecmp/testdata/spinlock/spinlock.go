// Package spinlock is a test-and-set lock on an atomic word
// (examples/locks).
//
// Expected: race-free.
package spinlock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SpinLock is 0 when free and 1 when held.
type SpinLock struct {
	state atomic.Int32
}

// Lock spins until it takes the lock.
func (l *SpinLock) Lock() {
	for !l.state.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *SpinLock) Unlock() {
	l.state.Store(0)
}

// system runs two goroutines through the spin lock.
//
//fencecheck:system
func system() {
	var l SpinLock
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			l.Lock()
			//fencecheck:critical
			l.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
}
