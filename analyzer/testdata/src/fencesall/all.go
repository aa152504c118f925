package fencesall

import "sync"

// twoStores has two places per goroutine where one barrier suffices: after
// either store, before the load; -fences=all names the other sets.
//
//fencecheck:system
func twoStores() {
	var x, y, u, v, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `^x86-TSO: the store to x can still sit in the store buffer when the load of y at all\.go:16:8 reads memory`
		u = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y`
		v = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 && u == v {
		panic("both loads saw 0")
	}
}
