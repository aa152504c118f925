package locks

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// AtomicPeterson is Peterson's algorithm on atomic fields: correct on every
// architecture and under every conforming compiler.
type AtomicPeterson struct {
	interested [2]atomic.Bool
	victim     atomic.Int32
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *AtomicPeterson) Lock(me int) {
	other := 1 - me
	l.interested[me].Store(true)
	l.victim.Store(int32(me))
	for l.interested[other].Load() && l.victim.Load() == int32(me) {
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (l *AtomicPeterson) Unlock(me int) {
	l.interested[me].Store(false)
}

// atomicPetersonSystem runs two goroutines through the atomic Peterson lock.
//
//fencecheck:system
func atomicPetersonSystem() {
	var l AtomicPeterson
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
