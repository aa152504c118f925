// Package widerange declares a range wider than 2^63 values on a shared
// counter. The range must not be enumerated: the extractor and the engines
// treat the counter as unbounded data (the predicate engine), and the
// analysis ends within its budget.
//
// Expected, by hand: correct and race-free (the counter only grows under
// its mutex, and its range holds every value it can take).
package widerange

import (
	"math"
	"sync"
)

// counter is a shared counter with a declared range.
type counter struct {
	mu sync.Mutex
	//fencecheck:range -9223372036854775808..9223372036854775807
	n int64
}

//fencecheck:system
func counterSystem() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.mu.Lock()
			if c.n < math.MaxInt64 {
				c.n++
			}
			c.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if c.n < 0 {
		panic("negative count")
	}
}
