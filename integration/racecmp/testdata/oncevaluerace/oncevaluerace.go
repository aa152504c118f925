// Package oncevaluerace builds a value once with sync.OnceValue, and one
// goroutine reads the counter the function writes without calling it.
//
// Expected: racy.
package oncevaluerace

import "sync"

// system: the second goroutine reads calls without calling get first.
//
//fencecheck:system
func system() {
	calls := 0
	get := sync.OnceValue(func() int {
		calls++
		return 42
	})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		_ = get()
		wg.Done()
	}()
	go func() {
		_ = calls
		wg.Done()
	}()
	wg.Wait()
}
