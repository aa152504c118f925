// Package sb is the store-buffering litmus test written as Go: each
// goroutine stores its flag and then loads the other's. Under x86-TSO both
// loads can read 0, because each store can still sit in its store buffer.
package sb

import "sync"

// Run is the system fencecheck checks.
//
//fencecheck:system
func Run() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
