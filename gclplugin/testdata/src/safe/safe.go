// Package safe holds the store-buffering litmus test with both stores made
// atomic: correct under x86-TSO, so fencecheck reports nothing.
package safe

import (
	"sync"
	"sync/atomic"
)

//fencecheck:system
func storeBuffering() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.StoreInt32(&x, 1)
		r0 = atomic.LoadInt32(&y)
		wg.Done()
	}()
	go func() {
		atomic.StoreInt32(&y, 1)
		r1 = atomic.LoadInt32(&x)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
