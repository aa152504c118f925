// Package atomiccounter has three goroutines add to a typed atomic counter
// in bounded loops.
//
// Expected: race-free.
package atomiccounter

import (
	"sync"
	"sync/atomic"
)

// system: six atomic increments, checked after wg.Wait.
//
//fencecheck:system
func system() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(3)
	for i := 0; i < 3; i++ {
		go func() {
			for range 2 {
				n.Add(1)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if n.Load() != 6 {
		panic("lost an increment")
	}
}
