// Package iriwatomic is the independent-reads-of-independent-writes litmus
// shape with typed atomics.
//
// Expected: race-free.
package iriwatomic

import (
	"sync"
	"sync/atomic"
)

// system: two readers must agree on the order of two independent writes.
//
//fencecheck:system
func system() {
	var x, y atomic.Int32
	var r0, r1, r2, r3 int32
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		x.Store(1)
		wg.Done()
	}()
	go func() {
		r0 = x.Load()
		r1 = y.Load()
		wg.Done()
	}()
	go func() {
		r2 = y.Load()
		r3 = x.Load()
		wg.Done()
	}()
	y.Store(1)
	wg.Wait()
	if r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0 {
		panic("the readers disagree on the order of the writes")
	}
}
