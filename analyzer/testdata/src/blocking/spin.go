package blocking

import (
	"sync"
	"sync/atomic"
)

// Spin loops that nothing can end are blocking bugs too: the goroutine
// runs, but it never gets anywhere, and whoever waits for it waits
// forever (the run time cannot tell it from a busy goroutine, so Go's
// "all goroutines are asleep" never fires).

// spinOnUnsetFlag waits for a flag that only a path not taken sets.
//
//fencecheck:system
func spinOnUnsetFlag() {
	var ready atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !ready.Load() { // want `^deadlock: go@\d+ and main block forever in ready\.Load\(\) and wg\.Wait\(\) \(system spinOnUnsetFlag\)$`
		}
	}()
	wg.Wait()
	ready.Store(true)
}

// spinOnSetFlag is its fixed twin: the flag is set before the wait.
//
//fencecheck:system
func spinOnSetFlag() {
	var ready atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !ready.Load() {
		}
	}()
	ready.Store(true)
	wg.Wait()
}

// spinLock is a test-and-set lock.
type spinLock struct{ held atomic.Int32 }

func (l *spinLock) lock() {
	for !l.held.CompareAndSwap(0, 1) { // want `^leak: go@\d+ blocks forever in l\.held\.CompareAndSwap\(0, 1\) after system spinLockNotReleased returns$`
	}
}

func (l *spinLock) unlock() { l.held.Store(0) }

// spinLockNotReleased returns early on one path without unlocking: the
// other goroutine spins forever once the system has returned.
//
//fencecheck:system
func spinLockNotReleased() {
	var l spinLock
	var n atomic.Int32
	go func() {
		l.lock()
		if n.Add(1) == 1 {
			return
		}
		l.unlock()
	}()
	go func() {
		l.lock()
		n.Add(1)
		l.unlock()
	}()
}

// spinLockReleased is its fixed twin: every path unlocks.
//
//fencecheck:system
func spinLockReleased() {
	var l spinLock
	var n atomic.Int32
	go func() {
		l.lock()
		defer l.unlock()
		if n.Add(1) == 1 {
			return
		}
	}()
	go func() {
		l.lock()
		n.Add(1)
		l.unlock()
	}()
}
