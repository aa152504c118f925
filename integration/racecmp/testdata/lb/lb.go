// Package lb is the load-buffering litmus shape on plain int32 variables.
//
// Expected: racy.
package lb

import "sync"

// system: each goroutine loads one variable and then stores to the other.
//
//fencecheck:system
func system() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r0 = x
		y = 1
		wg.Done()
	}()
	go func() {
		r1 = y
		x = 1
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && r1 == 1 {
		panic("both loads saw the later stores")
	}
}
