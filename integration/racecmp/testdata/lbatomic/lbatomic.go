// Package lbatomic is the load-buffering litmus shape with typed atomics.
//
// Expected: race-free.
package lbatomic

import (
	"sync"
	"sync/atomic"
)

// system: each goroutine loads one variable and then stores to the other.
//
//fencecheck:system
func system() {
	var x, y atomic.Int32
	var r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r0 = x.Load()
		y.Store(1)
		wg.Done()
	}()
	go func() {
		r1 = y.Load()
		x.Store(1)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && r1 == 1 {
		panic("both loads saw the later stores")
	}
}
