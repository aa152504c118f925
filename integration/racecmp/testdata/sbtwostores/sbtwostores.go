// Package sbtwostores is store buffering with two stores per goroutine
// (analyzer/testdata/src/fencesall): u and v are private, x and y race.
//
// Expected: racy.
package sbtwostores

import "sync"

// system: each goroutine stores twice and loads the other's first
// variable.
//
//fencecheck:system
func system() {
	var x, y, u, v, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		u = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1
		v = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 && u == v {
		panic("both loads saw 0")
	}
}
