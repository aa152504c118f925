package litmussb

import (
	"sync"
	"sync/atomic"
)

// storeBuffering is the litmus test SB as the analyzer's litmus tests write
// it: loads into goroutine-local registers, published by atomic stores.
//
//fencecheck:system
func storeBuffering() {
	var x, y int32
	var r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		l := y
		atomic.StoreInt32(&r0, l)
		wg.Done()
	}()
	go func() {
		y = 1
		l := x
		atomic.StoreInt32(&r1, l)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
