// Package sbbool is store buffering on bool fields
// (analyzer/testdata/src/fixes, sbBool).
//
// Expected: racy.
package sbbool

import "sync"

// flags holds two shared booleans.
type flags struct {
	up, down bool
}

// system: each goroutine raises one flag and loads the other.
//
//fencecheck:system
func system() {
	var f flags
	var r0, r1 bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		f.up = true
		r0 = f.down
		wg.Done()
	}()
	go func() {
		f.down = true
		r1 = f.up
		wg.Done()
	}()
	wg.Wait()
	if !r0 && !r1 {
		panic("both loads saw false")
	}
}
