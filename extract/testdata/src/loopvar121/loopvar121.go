//go:build go1.21

// Package loopvar121 is kept at Go 1.21 by its build constraint: a for
// loop's variable is one variable for every iteration, shared by the
// goroutines the loop starts and the loop that increments it.
package loopvar121

import "sync"

//fencecheck:system
func sharedLoopVar() {
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { // the go statement
			defer wg.Done()
			mu.Lock()
			sum += i
			mu.Unlock()
		}()
	}
	wg.Wait()
}
