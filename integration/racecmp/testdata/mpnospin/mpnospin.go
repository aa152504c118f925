// Package mpnospin is message passing without a spin loop: the reader looks
// at the flag once (analyzer/testdata/src/correct, messagePassing).
//
// Expected: racy.
package mpnospin

import "sync"

// system: a writer publishes data through a plain flag.
//
//fencecheck:system
func system() {
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
