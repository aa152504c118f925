// Package copyrace copies a shared buffer while its writer fills it.
//
// Expected: racy.
package copyrace

import "sync"

// system: one goroutine writes buf[1], another copies buf.
//
//fencecheck:system
func system() {
	var buf [2]int32
	var out [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		buf[1] = 7
		wg.Done()
	}()
	go func() {
		copy(out[:], buf[:])
		wg.Done()
	}()
	wg.Wait()
	_ = out
}
