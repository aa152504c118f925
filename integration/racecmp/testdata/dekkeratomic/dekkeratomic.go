// Package dekkeratomic is Dekker's lock with every shared access atomic
// (examples/locks).
//
// Expected: race-free.
package dekkeratomic

import (
	"sync"
	"sync/atomic"
)

// Dekker is Dekker's algorithm on typed atomics.
type Dekker struct {
	flag [2]atomic.Int32
	turn atomic.Int32
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *Dekker) Lock(me int) {
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
func (l *Dekker) Unlock(me int) {
	l.turn.Store(int32(1 - me))
	l.flag[me].Store(0)
}

// system runs two goroutines through the atomic Dekker lock.
//
//fencecheck:system
func system() {
	var l Dekker
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
