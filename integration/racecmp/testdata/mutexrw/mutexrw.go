// Package mutexrw has a writer and a reader of two fields that always hold
// the mutex.
//
// Expected: race-free.
package mutexrw

import "sync"

// pair must always hold equal values.
type pair struct {
	mu   sync.Mutex
	a, b int32
}

// system: the reader never sees a half-written pair.
//
//fencecheck:system
func system() {
	var p pair
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		p.mu.Lock()
		p.a = 1
		p.b = 1
		p.mu.Unlock()
		wg.Done()
	}()
	go func() {
		p.mu.Lock()
		a, b := p.a, p.b
		p.mu.Unlock()
		if a != b {
			panic("torn pair")
		}
		wg.Done()
	}()
	wg.Wait()
}
