// Package wggomapracy is wggomap (WaitGroup.Go over a map's range) with
// the sum a plain int32 each goroutine adds to.
//
// Expected: racy.
package wggomapracy

import "sync"

// system: two goroutines add to sum at once.
//
//fencecheck:system
func system() {
	m := map[string]int32{"a": 1, "b": 2}
	var sum int32
	var wg sync.WaitGroup
	for _, v := range m {
		wg.Go(func() { sum += v })
	}
	wg.Wait()
	_ = sum
}
