// Package floatkeyslocked has two goroutines count observations in a map
// keyed by bucket bounds (float64) under a lock.
//
// Expected: race-free.
package floatkeyslocked

import "sync"

type histogram struct {
	mu      sync.Mutex
	buckets map[float64]int
}

func (h *histogram) observe(v float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range []float64{0.5, 1} {
		if v <= b {
			h.buckets[b]++
			return
		}
	}
}

// system: every observation holds the lock.
//
//fencecheck:system
func system() {
	h := &histogram{buckets: map[float64]int{0.5: 0, 1: 0}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		h.observe(0.25)
		wg.Done()
	}()
	go func() {
		h.observe(0.75)
		wg.Done()
	}()
	wg.Wait()
	if h.buckets[0.5]+h.buckets[1] != 2 {
		panic("lost observation")
	}
}
