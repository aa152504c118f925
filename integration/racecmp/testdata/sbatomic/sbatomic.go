// Package sbatomic is the store-buffering litmus shape with every shared
// access atomic.
//
// Expected: race-free.
package sbatomic

import (
	"sync"
	"sync/atomic"
)

// system: each goroutine stores to one variable and loads the other.
//
//fencecheck:system
func system() {
	var x, y atomic.Int32
	var r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x.Store(1)
		r0 = y.Load()
		wg.Done()
	}()
	go func() {
		y.Store(1)
		r1 = x.Load()
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
