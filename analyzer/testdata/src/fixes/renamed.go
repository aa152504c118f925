package fixes

import (
	"sync"
	satomic "sync/atomic"
)

var x, y uint64 // package-level shared variables

var sink satomic.Int32

//fencecheck:system
func sbGlobals() {
	var r0, r1 uint64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `^x86-TSO: the store to x`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
