package locks

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SpinLock is a test-and-set lock on an atomic word. CompareAndSwap and Store
// are locked instructions on x86 (LOCK CMPXCHG, XCHG), so the lock needs no
// further barrier; fencecheck proves it and says nothing.
type SpinLock struct {
	state atomic.Int32 // 0: free, 1: held
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

// spinLockSystem runs two goroutines through the spin lock.
//
//fencecheck:system
func spinLockSystem() {
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
