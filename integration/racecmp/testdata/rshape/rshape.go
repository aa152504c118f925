// Package rshape is the R litmus shape on plain int32 variables.
//
// Expected: racy.
package rshape

import "sync"

// system: one goroutine stores x then y; the other overwrites y and loads
// x.
//
//fencecheck:system
func system() {
	var x, y, r0 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		y = 1
		wg.Done()
	}()
	go func() {
		y = 2
		r0 = x
		wg.Done()
	}()
	wg.Wait()
	if y == 2 && r0 == 0 {
		panic("the load of x overtook the store to y")
	}
}
