package locks

import (
	"sync"
	"sync/atomic"
)

// AtomicBrokenLock makes the check and the set of the broken lock atomic, one
// by one. That removes the data race but not the bug: both goroutines can
// still load 0 before either stores 1. The check and the set must be one
// CompareAndSwap (see SpinLock).
type AtomicBrokenLock struct {
	locked atomic.Int32
}

// Lock waits until the lock looks free, then takes it.
func (l *AtomicBrokenLock) Lock() {
	for l.locked.Load() != 0 {
	}
	l.locked.Store(1)
}

// Unlock releases the lock.
func (l *AtomicBrokenLock) Unlock() {
	l.locked.Store(0)
}

// atomicBrokenLockSystem runs two goroutines through the atomic broken lock.
//
//fencecheck:system
func atomicBrokenLockSystem() {
	var l AtomicBrokenLock
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
