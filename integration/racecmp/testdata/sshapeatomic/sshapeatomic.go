// Package sshapeatomic is the S litmus shape with typed atomics.
//
// Expected: race-free.
package sshapeatomic

import (
	"sync"
	"sync/atomic"
)

// system: one goroutine stores x then y; the other loads y and then stores
// to x.
//
//fencecheck:system
func system() {
	var x, y atomic.Int32
	var r0 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x.Store(2)
		y.Store(1)
		wg.Done()
	}()
	go func() {
		r0 = y.Load()
		x.Store(1)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && x.Load() == 2 {
		panic("the store to x overtook the load of y")
	}
}
