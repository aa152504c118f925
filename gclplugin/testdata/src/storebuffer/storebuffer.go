// Package storebuffer holds the store-buffering litmus test as a fencecheck
// system: its plain accesses race, and under x86-TSO both loads can read 0,
// so each store needs a barrier.
package storebuffer

import "sync"

//fencecheck:system
func storeBuffering() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1  // want `^race: go@13 stores x` `^x86-TSO: `
		r0 = y // want `^race: go@13 loads y`
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
