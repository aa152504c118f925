package fixes

import (
	"sync"
)

// sb64 is store buffering on int64 variables.
//
//fencecheck:system
func sb64() {
	var x, y, r0, r1 int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `^x86-TSO: the store to x`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 2 // want `^x86-TSO: the store to y`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
