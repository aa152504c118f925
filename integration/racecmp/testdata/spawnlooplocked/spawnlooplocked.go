// Package spawnlooplocked starts two workers from a goroutine, in a loop with a
// constant bound; they count under a lock.
//
// Expected: race-free.
package spawnlooplocked

import "sync"

// system: a goroutine spawns the workers.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			go func() {
				mu.Lock()
				n++
				mu.Unlock()
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	mu.Lock()
	_ = n
	mu.Unlock()
}
