// Package mutexcounter protects a plain counter with a sync.Mutex
// (analyzer/testdata/src/correct, mutex).
//
// Expected: race-free.
package mutexcounter

import "sync"

// system: two goroutines increment the counter under the mutex.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var n int32 //fencecheck:range 0..2
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			mu.Lock()
			n++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}
