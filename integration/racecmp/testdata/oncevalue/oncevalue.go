// Package oncevalue builds a value once with sync.OnceValue; every
// goroutine reads it, and the counter the function writes, after its
// call.
//
// Expected: race-free.
package oncevalue

import "sync"

type config struct{ limit int }

// system: two goroutines call get and read what the one run wrote.
//
//fencecheck:system
func system() {
	calls := 0
	get := sync.OnceValue(func() *config {
		calls++
		return &config{limit: 4}
	})
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			_ = get().limit
			_ = calls
			wg.Done()
		}()
	}
	wg.Wait()
}
