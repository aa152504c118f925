package sb

import "sync"

// storeBuffering is the classic store-buffering shape: each goroutine stores
// to one variable and loads the other; under x86-TSO both loads can read 0.
//
//fencecheck:system
func storeBuffering() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `^x86-TSO: the store to x can still sit in the store buffer when the load of y at sb\.go:15:8 reads memory`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y can still sit in the store buffer when the load of x at sb\.go:20:8 reads memory`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
