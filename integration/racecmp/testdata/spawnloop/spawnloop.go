// Package spawnloop starts two workers from a goroutine, in a loop with a
// constant bound; they count without a lock.
//
// Expected: racy.
package spawnloop

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
				n++
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	mu.Lock()
	_ = n
	mu.Unlock()
}
