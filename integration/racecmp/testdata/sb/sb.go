// Package sb is the store-buffering litmus shape on plain int32 variables
// (analyzer/testdata/src/sb).
//
// Expected: racy.
package sb

import "sync"

// system: each goroutine stores to one variable and loads the other.
//
//fencecheck:system
func system() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
