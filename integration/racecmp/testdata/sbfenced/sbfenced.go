// Package sbfenced is store buffering with atomic stores but plain loads
// (analyzer/testdata/src/correct, sbFenced): correct on x86-TSO, but each
// plain load races with the other goroutine's atomic store.
//
// Expected: racy.
package sbfenced

import (
	"sync"
	"sync/atomic"
)

// system: atomic stores, plain loads.
//
//fencecheck:system
func system() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.StoreInt32(&x, 1)
		r0 = y
		wg.Done()
	}()
	go func() {
		atomic.StoreInt32(&y, 1)
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
