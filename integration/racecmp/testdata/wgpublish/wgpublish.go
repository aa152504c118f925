// Package wgpublish has two goroutines fill in disjoint fields of a struct
// that the system function reads after wg.Wait.
//
// Expected: race-free.
package wgpublish

import "sync"

// pair is filled in by two goroutines.
type pair struct {
	a, b int32
}

// system: each Done is ordered before the return of Wait.
//
//fencecheck:system
func system() {
	var p pair
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		p.a = 1
		wg.Done()
	}()
	go func() {
		p.b = 2
		wg.Done()
	}()
	wg.Wait()
	if p.a != 1 || p.b != 2 {
		panic("a write is not visible after Wait")
	}
}
