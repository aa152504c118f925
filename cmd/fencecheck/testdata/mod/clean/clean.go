// Package clean has a correct system and ordinary code.
package clean

import (
	"sync"
	"sync/atomic"
)

// Add is ordinary code without directives.
func Add(a, b int) int { return a + b }

//fencecheck:system
func messagePassing() {
	var data, ready atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		data.Store(42)
		ready.Store(1)
		wg.Done()
	}()
	go func() {
		if ready.Load() == 1 && data.Load() != 42 {
			panic("flag seen before data")
		}
		wg.Done()
	}()
	wg.Wait()
}
