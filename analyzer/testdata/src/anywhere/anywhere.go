package anywhere

import (
	"sync"
	"sync/atomic"
)

// excludedStore forbids a barrier after the store to x; with barriers
// allowed anywhere, one goes after the statement r2 = z instead: after its
// store to r2 (a barrier after a store is preferred to one after the load,
// which costs the same, as it has a fix), which drains the store to x too.
//
//fencecheck:system
func excludedStore() {
	var x, y, z, r0, r1, r2 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		//fencecheck:nofence
		x = 1
		r2 = z // want `^x86-TSO: the store to r2 can still sit in the store buffer when the load of y at anywhere\.go:22:8 reads memory`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 && r2 == 0 {
		panic("both loads saw 0")
	}
}

// afterLoad forbids a barrier after the store to x and has no other store
// before the load of y: the barrier goes after the load of z, at a point
// that one statement reaches.
//
//fencecheck:system
func afterLoad() {
	var x, y, z, r0, r1, r2 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		//fencecheck:nofence
		x = 1
		l2 := z // want `^x86-TSO: the store to x at anywhere\.go:\d+:3 can still sit in the store buffer when the load of y at anywhere\.go:\d+:9 reads memory`
		l0 := y
		atomic.StoreInt32(&r0, l0)
		atomic.StoreInt32(&r2, l2)
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 && r2 == 0 {
		panic("both loads saw 0")
	}
}

// join stores to x on both arms of an if: with barriers allowed anywhere,
// one barrier at the join, before the load of y, does for both stores
// (after writes, each store needs its own: see package storebarriers).
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
			x = 1
		} else {
			x = 2
		}
		r0 = y // want `^x86-TSO: the store to x at anywhere\.go:\d+:4 can still sit in the store buffer when the load of y at anywhere\.go:\d+:8 reads memory`
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
