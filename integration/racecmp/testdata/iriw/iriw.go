// Package iriw is the independent-reads-of-independent-writes litmus shape
// on plain int32 variables: one writer goroutine, two reader goroutines, and
// the system function as the second writer.
//
// Expected: racy.
package iriw

import "sync"

// system: two readers must agree on the order of two independent writes.
//
//fencecheck:system
func system() {
	var x, y, r0, r1, r2, r3 int32
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		x = 1
		wg.Done()
	}()
	go func() {
		r0 = x
		r1 = y
		wg.Done()
	}()
	go func() {
		r2 = y
		r3 = x
		wg.Done()
	}()
	y = 1
	wg.Wait()
	if r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0 {
		panic("the readers disagree on the order of the writes")
	}
}
