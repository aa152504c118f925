// Package lostupdate increments a plain counter from two goroutines
// (analyzer/testdata/src/sc, lostUpdate).
//
// Expected: racy.
package lostupdate

import "sync"

// system: two plain increments of one counter.
//
//fencecheck:system
func system() {
	var n int32 //fencecheck:range 0..2
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			n++
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}
