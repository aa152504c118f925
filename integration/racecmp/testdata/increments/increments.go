// Package increments has each goroutine update its own counter, read after
// wg.Wait (analyzer/testdata/src/unbounded, increments).
//
// Expected: race-free.
package increments

import "sync"

// system: disjoint plain updates, ordered before the reads by the
// WaitGroup.
//
//fencecheck:system
func system() {
	var x, y, r0, r1 int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x += 5
		wg.Done()
	}()
	go func() {
		y += 7
		wg.Done()
	}()
	wg.Wait()
	r0, r1 = x, y
	if r0 != 5 || r1 != 7 {
		panic("lost a store")
	}
}
