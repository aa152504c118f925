// Package thirdwriter has two goroutines update a counter under a mutex
// and a third reset it without the mutex.
//
// Expected: racy.
package thirdwriter

import "sync"

// system: three goroutines, one of which ignores the mutex.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var n int32 //fencecheck:range 0..2
	var wg sync.WaitGroup
	wg.Add(3)
	for i := 0; i < 2; i++ {
		go func() {
			mu.Lock()
			n++
			mu.Unlock()
			wg.Done()
		}()
	}
	go func() {
		n = 0
		wg.Done()
	}()
	wg.Wait()
	if n > 2 {
		panic("impossible count")
	}
}
