// Package twoplustwowatomic is the 2+2W litmus shape with the sync/atomic
// functions.
//
// Expected: race-free.
package twoplustwowatomic

import (
	"sync"
	"sync/atomic"
)

// system: each goroutine stores to both variables, in opposite orders.
//
//fencecheck:system
func system() {
	var x, y int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.StoreInt32(&x, 1)
		atomic.StoreInt32(&y, 2)
		wg.Done()
	}()
	go func() {
		atomic.StoreInt32(&y, 1)
		atomic.StoreInt32(&x, 2)
		wg.Done()
	}()
	wg.Wait()
	if x == 1 && y == 1 {
		panic("each first store overwrote the other goroutine's second")
	}
}
