// Package mapsnapshot reads a map while another goroutine deletes from it
// (a config snapshot read without the lock its writer holds).
//
// Expected: racy.
package mapsnapshot

import "sync"

type config struct {
	mu   sync.Mutex
	vals map[string]int
}

// system: delete under the lock, read without it.
//
//fencecheck:system
func system() {
	c := &config{vals: map[string]int{"a": 1, "b": 2}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.mu.Lock()
		delete(c.vals, "a")
		c.mu.Unlock()
		wg.Done()
	}()
	go func() {
		_ = c.vals["b"]
		wg.Done()
	}()
	wg.Wait()
}
