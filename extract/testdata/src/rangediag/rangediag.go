// Package rangediag has ranges that the setup of a system already leaves.
package rangediag

import "sync"

// sharedZero starts a shared variable at 0, outside its range.
//
//fencecheck:system
func sharedZero() {
	var x int32 //fencecheck:range 1..3
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		x = 2
		wg.Done()
	}()
	wg.Wait()
	_ = x
}

// setupLocal gives a local of the setup a value outside its range.
//
//fencecheck:system
func setupLocal() {
	var x int32
	k := int32(5) //fencecheck:range 0..3
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		x = 1
		wg.Done()
	}()
	wg.Wait()
	_, _ = x, k
}
