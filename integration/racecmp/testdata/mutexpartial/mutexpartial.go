// Package mutexpartial increments a counter under a mutex in one goroutine
// and without it in the other.
//
// Expected: racy.
package mutexpartial

import "sync"

// counter is a plain count and the mutex meant to guard it.
type counter struct {
	mu sync.Mutex
	n  int32 //fencecheck:range 0..2
}

// system: one locked and one unlocked increment.
//
//fencecheck:system
func system() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
		wg.Done()
	}()
	go func() {
		c.n++
		wg.Done()
	}()
	wg.Wait()
	if c.n == 0 {
		panic("both increments lost")
	}
}
