// Package floatkeys has two goroutines count observations in a map keyed
// by bucket bounds (float64), one of them without the lock.
//
// Expected: racy.
package floatkeys

import "sync"

type histogram struct {
	mu      sync.Mutex
	buckets map[float64]int
}

func (h *histogram) observe(v float64, locked bool) {
	if locked {
		h.mu.Lock()
		defer h.mu.Unlock()
	}
	for _, b := range []float64{0.5, 1} {
		if v <= b {
			h.buckets[b]++
			return
		}
	}
}

// system: one observation is counted without the lock.
//
//fencecheck:system
func system() {
	h := &histogram{buckets: map[float64]int{0.5: 0, 1: 0}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		h.observe(0.25, false)
		wg.Done()
	}()
	go func() {
		h.observe(0.75, true)
		wg.Done()
	}()
	wg.Wait()
}
