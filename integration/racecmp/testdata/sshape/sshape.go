// Package sshape is the S litmus shape on plain int32 variables.
//
// Expected: racy.
package sshape

import "sync"

// system: one goroutine stores x then y; the other loads y and then stores
// to x.
//
//fencecheck:system
func system() {
	var x, y, r0 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 2
		y = 1
		wg.Done()
	}()
	go func() {
		r0 = y
		x = 1
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && x == 2 {
		panic("the store to x overtook the load of y")
	}
}
