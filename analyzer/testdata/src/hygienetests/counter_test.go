package hygienetests

import "sync"

// twoIncrements counts to two.
//
//fencecheck:system
func twoIncrements() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.inc()
			wg.Done()
		}()
	}
	wg.Wait()
	c.finish()
	if c.n.Load() != 2 {
		panic("lost increment")
	}
}

var stray int32 //fencecheck:range 0..1 // want `^unused //fencecheck:range: no goroutine of any system in this package uses stray$`
