package locks

import (
	"sync"
	"sync/atomic"
)

// AtomicDekker is Dekker's algorithm with every shared access atomic. Go's
// atomics are sequentially consistent on every architecture (the stores
// compile to XCHG on amd64), so the algorithm is correct as it stands in
// every textbook; fencecheck proves it.
type AtomicDekker struct {
	flag [2]atomic.Int32
	turn atomic.Int32
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *AtomicDekker) Lock(me int) {
	other := 1 - me
	l.flag[me].Store(1)
	for l.flag[other].Load() == 1 {
		if l.turn.Load() != int32(me) {
			l.flag[me].Store(0)
			for l.turn.Load() != int32(me) {
			}
			l.flag[me].Store(1)
		}
	}
}

// Unlock leaves the critical section as goroutine me.
func (l *AtomicDekker) Unlock(me int) {
	l.turn.Store(int32(1 - me))
	l.flag[me].Store(0)
}

// atomicDekkerSystem runs two goroutines through the atomic Dekker lock.
//
//fencecheck:system
func atomicDekkerSystem() {
	var l AtomicDekker
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
