// Package betweenspawnslocked starts a goroutine, then sets up what it reads, then
// starts another: it does so under the lock the goroutine takes.
//
// Expected: race-free.
package betweenspawnslocked

import "sync"

type config struct {
	mu    sync.Mutex
	limit int
}

// system: a store between two go statements.
//
//fencecheck:system
func system() {
	var c config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.mu.Lock()
		_ = c.limit
		c.mu.Unlock()
		wg.Done()
	}()
	c.mu.Lock()
	c.limit = 4
	c.mu.Unlock()
	go func() {
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
