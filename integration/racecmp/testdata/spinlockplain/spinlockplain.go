// Package spinlockplain takes a lock with CompareAndSwap but releases it
// with a plain store (examples/locks): the store races with the other
// goroutine's CompareAndSwap.
//
// Expected: racy.
package spinlockplain

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SpinLock is 0 when free and 1 when held.
type SpinLock struct {
	state int32
}

// Lock spins until it takes the lock.
func (l *SpinLock) Lock() {
	for !atomic.CompareAndSwapInt32(&l.state, 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock with a plain store.
func (l *SpinLock) Unlock() {
	l.state = 0
}

// system runs two goroutines through the lock.
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
