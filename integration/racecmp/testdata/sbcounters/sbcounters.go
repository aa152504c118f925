// Package sbcounters is store buffering on unbounded counters updated in
// place (analyzer/testdata/src/unbounded, counters).
//
// Expected: racy.
package sbcounters

import "sync"

// system: each goroutine adds to one counter and loads the other.
//
//fencecheck:system
func system() {
	var x, y, r0, r1 int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x += 5
		r0 = y
		wg.Done()
	}()
	go func() {
		y += 7
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
