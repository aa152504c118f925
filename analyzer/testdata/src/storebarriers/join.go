package storebarriers

import "sync"

// join stores to x on both arms of an if, then loads y: store buffering,
// whichever arm ran. Each store needs its own barrier; the join after the
// if, which both reach, is the place of neither.
//
//fencecheck:system
func join() {
	var x, y, z, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		z = 1
		wg.Done()
	}()
	go func() {
		if z == 0 {
			x = 1 // want `^x86-TSO: the store to x can still sit in the store buffer when the load of y at join\.go:24:8 reads memory`
		} else {
			x = 2 // want `^x86-TSO: the store to x can still sit in the store buffer when the load of y at join\.go:24:8 reads memory`
		}
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y can still sit in the store buffer when the load of x at join\.go:29:8 reads memory`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
