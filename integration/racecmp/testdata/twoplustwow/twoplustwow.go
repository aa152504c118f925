// Package twoplustwow is the 2+2W litmus shape on plain int32 variables.
//
// Expected: racy.
package twoplustwow

import "sync"

// system: each goroutine stores to both variables, in opposite orders.
//
//fencecheck:system
func system() {
	var x, y int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		y = 2
		wg.Done()
	}()
	go func() {
		y = 1
		x = 2
		wg.Done()
	}()
	wg.Wait()
	if x == 1 && y == 1 {
		panic("each first store overwrote the other goroutine's second")
	}
}
