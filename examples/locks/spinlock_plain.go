package locks

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// PlainUnlockSpinLock takes the lock with a CompareAndSwap but releases it
// with a plain store. On amd64 the MOV is a correct release (x86 keeps the
// holder's stores in order), but in Go the plain store races with the other
// goroutine's CompareAndSwap: the memory model promises nothing for it.
type PlainUnlockSpinLock struct {
	state int32
}

// Lock spins until it takes the lock.
func (l *PlainUnlockSpinLock) Lock() {
	for !atomic.CompareAndSwapInt32(&l.state, 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock with a plain store.
func (l *PlainUnlockSpinLock) Unlock() {
	l.state = 0
}

// plainUnlockSystem runs two goroutines through the lock.
//
//fencecheck:system
func plainUnlockSystem() {
	var l PlainUnlockSpinLock
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
