// Package sbglobals is store buffering on package-level variables
// (analyzer/testdata/src/fixes, sbGlobals).
//
// Expected: racy.
package sbglobals

import "sync"

var x, y uint64 // shared by the goroutines of the system

// system: each goroutine stores to one global and loads the other.
//
//fencecheck:system
func system() {
	x, y = 0, 0
	var r0, r1 uint64
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
