// Package spinlockdata protects a plain counter with a CompareAndSwap spin
// lock released by an atomic store.
//
// Expected: race-free.
package spinlockdata

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// guarded is a plain counter and the lock word that guards it.
type guarded struct {
	lock int32
	n    int32 //fencecheck:range 0..2
}

// inc increments the counter under the lock.
func (g *guarded) inc() {
	for !atomic.CompareAndSwapInt32(&g.lock, 0, 1) {
		runtime.Gosched()
	}
	g.n++
	atomic.StoreInt32(&g.lock, 0)
}

// system: two goroutines increment under the lock.
//
//fencecheck:system
func system() {
	var g guarded
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			g.inc()
			wg.Done()
		}()
	}
	wg.Wait()
	if g.n != 2 {
		panic("lost update")
	}
}
