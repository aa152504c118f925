// Package betweenspawns starts a goroutine, then sets up what it reads, then
// starts another: it does so without the lock.
//
// Expected: racy.
package betweenspawns

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
	c.limit = 4
	go func() {
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
