package fixes

import (
	"sync"
	"sync/atomic"
)

// counters is store buffering on fields of a struct, one incremented in
// place; the file already imports sync/atomic.
type counters struct {
	a, b uint32 //fencecheck:range 0..3
	done atomic.Int32
}

//fencecheck:system
func sbFields() {
	c := &counters{}
	var r0, r1 uint32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.a++ // want `^x86-TSO: the store to c\.a`
		r0 = c.b
		c.done.Add(1)
		wg.Done()
	}()
	go func() {
		c.b += 2 // want `^x86-TSO: the store to c\.b`
		r1 = c.a
		c.done.Add(1)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
