// Package rshapeatomic is the R litmus shape with typed atomics.
//
// Expected: race-free.
package rshapeatomic

import (
	"sync"
	"sync/atomic"
)

// system: one goroutine stores x then y; the other overwrites y and loads
// x.
//
//fencecheck:system
func system() {
	var x, y atomic.Int32
	var r0 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x.Store(1)
		y.Store(1)
		wg.Done()
	}()
	go func() {
		y.Store(2)
		r0 = x.Load()
		wg.Done()
	}()
	wg.Wait()
	if y.Load() == 2 && r0 == 0 {
		panic("the load of x overtook the store to y")
	}
}
