// Package wggomap hands WaitGroup.Go a closure over each value of a map's
// range, each goroutine adding its value to an atomic sum.
//
// Expected: race-free.
package wggomap

import (
	"sync"
	"sync/atomic"
)

// system: the sum is 3 whatever the order of the range.
//
//fencecheck:system
func system() {
	m := map[string]int32{"a": 1, "b": 2}
	var sum atomic.Int32
	var wg sync.WaitGroup
	for _, v := range m {
		wg.Go(func() { sum.Add(v) })
	}
	wg.Wait()
	if sum.Load() != 3 {
		panic("a value was added twice or not at all")
	}
}
