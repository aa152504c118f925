// Package sbfields is store buffering on fields of a struct next to an
// atomic counter (analyzer/testdata/src/fixes, sbFields).
//
// Expected: racy.
package sbfields

import (
	"sync"
	"sync/atomic"
)

// counters holds two plain fields and an atomic one.
type counters struct {
	a, b uint32 //fencecheck:range 0..3
	done atomic.Int32
}

// system: each goroutine updates one field and loads the other.
//
//fencecheck:system
func system() {
	c := &counters{}
	var r0, r1 uint32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.a++
		r0 = c.b
		c.done.Add(1)
		wg.Done()
	}()
	go func() {
		c.b += 2
		r1 = c.a
		c.done.Add(1)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
