// Package checkthenset is the broken check-then-set lock on a plain word
// (examples/locks).
//
// Expected: racy.
package checkthenset

import "sync"

// BrokenLock checks that the lock is free and then takes it, in two steps.
type BrokenLock struct {
	locked int32
}

// Lock waits until the lock looks free, then takes it.
func (l *BrokenLock) Lock() {
	for l.locked != 0 {
	}
	l.locked = 1
}

// Unlock releases the lock.
func (l *BrokenLock) Unlock() {
	l.locked = 0
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
