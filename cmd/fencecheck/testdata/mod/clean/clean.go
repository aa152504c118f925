// Package clean has a correct system and ordinary code.
package clean

import "sync"

// Add is ordinary code without directives.
func Add(a, b int) int { return a + b }

//fencecheck:system
func messagePassing() {
	var data, ready int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		data = 42
		ready = 1
		wg.Done()
	}()
	go func() {
		if ready == 1 && data != 42 {
			panic("flag seen before data")
		}
		wg.Done()
	}()
	wg.Wait()
}
