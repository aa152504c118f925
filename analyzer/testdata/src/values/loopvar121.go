//go:build go1.21

package values

import "sync"

// sharedLoopVar's file is kept at Go 1.21 by its build constraint: a for
// loop's variable is one variable for every iteration, shared by the
// goroutines the loop starts and the loop that increments it.
//
//fencecheck:system
func sharedLoopVar() {
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ { // want `^race: main stores i here while go@\d+\(#0\) loads i at loopvar121\.go:\d+:\d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			sum += i
			mu.Unlock()
		}()
	}
	wg.Wait()
}
