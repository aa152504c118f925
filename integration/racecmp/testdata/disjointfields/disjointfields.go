// Package disjointfields has two goroutines write different fields and
// different array elements of one struct: distinct memory locations do not
// race.
//
// Expected: race-free.
package disjointfields

import "sync"

// state has one field and one array element per goroutine.
type state struct {
	a, b  int32
	slots [2]int32
}

// system: each goroutine touches only its own locations.
//
//fencecheck:system
func system() {
	var s state
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.a = 1
		s.slots[0] = s.a + 1
		wg.Done()
	}()
	go func() {
		s.b = 3
		s.slots[1] = s.b + 1
		wg.Done()
	}()
	wg.Wait()
}
