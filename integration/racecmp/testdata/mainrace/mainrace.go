// Package mainrace has the system function write a variable after the
// spawn while the goroutine reads it.
//
// Expected: racy.
package mainrace

import "sync"

// system: the store after the go statement is not ordered with the
// goroutine's load.
//
//fencecheck:system
func system() {
	var x, r int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r = x
		wg.Done()
	}()
	x = 1
	wg.Wait()
	if r > 1 {
		panic("impossible value")
	}
}
