// Package singlewriter has one goroutine write a field that the system
// function reads after wg.Wait (analyzer/testdata/src/directives).
//
// Expected: race-free.
package singlewriter

import "sync"

// counter is the shared state.
type counter struct {
	n int32
}

// system: the write is ordered before the read by the WaitGroup.
//
//fencecheck:system
func system() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.n = 1
		wg.Done()
	}()
	wg.Wait()
	if c.n != 1 {
		panic("write not visible after Wait")
	}
}
