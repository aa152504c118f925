// Package checkthensetatomic is the check-then-set lock with an atomic load
// and an atomic store (examples/locks): free of data races, though both
// goroutines can still enter.
//
// Expected: race-free.
package checkthensetatomic

import (
	"sync"
	"sync/atomic"
)

// BrokenLock checks that the lock is free and then takes it, in two steps.
type BrokenLock struct {
	locked atomic.Int32
}

// Lock waits until the lock looks free, then takes it.
func (l *BrokenLock) Lock() {
	for l.locked.Load() != 0 {
	}
	l.locked.Store(1)
}

// Unlock releases the lock.
func (l *BrokenLock) Unlock() {
	l.locked.Store(0)
}

// system runs two goroutines through the broken lock.
//
//fencecheck:system
func system() {
	var l BrokenLock
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
