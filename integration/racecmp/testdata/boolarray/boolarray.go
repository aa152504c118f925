// Package boolarray has three goroutines each raise their own element of a
// bool array and look at the next one.
//
// Expected: racy.
package boolarray

import "sync"

// system: goroutine i stores seen[i] and loads seen[(i+1)%3].
//
//fencecheck:system
func system() {
	var seen [3]bool
	var saw [3]bool
	var wg sync.WaitGroup
	wg.Add(3)
	for i := 0; i < 3; i++ {
		go func(me int) {
			seen[me] = true
			saw[me] = seen[(me+1)%3]
			wg.Done()
		}(i)
	}
	wg.Wait()
	if !saw[0] && !saw[1] && !saw[2] {
		panic("every goroutine missed its neighbour")
	}
}
