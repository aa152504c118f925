package locks

import (
	"runtime"
	"sync/atomic"
)

// AtomicBakery is Lamport's bakery with atomic fields. The tickets still grow
// without bound; fencecheck proves the lock with its predicate engine.
type AtomicBakery struct {
	choosing [2]atomic.Int32
	number   [2]atomic.Int64
}

// Lock enters the critical section as goroutine me (0 or 1).
func (b *AtomicBakery) Lock(me int) {
	other := 1 - me
	b.choosing[me].Store(1)
	ticket := b.number[other].Load() + 1
	b.number[me].Store(ticket)
	b.choosing[me].Store(0)
	for b.choosing[other].Load() != 0 {
		runtime.Gosched()
	}
	for {
		n := b.number[other].Load()
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (b *AtomicBakery) Unlock(me int) {
	b.number[me].Store(0)
}

// atomicBakerySystem runs two goroutines that take the atomic bakery lock
// forever.
//
//fencecheck:system
func atomicBakerySystem() {
	var b AtomicBakery
	for i := range 2 {
		go func(me int) {
			for {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
		}(i)
	}
}
