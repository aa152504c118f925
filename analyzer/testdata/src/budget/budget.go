package budget

import "sync"

//fencecheck:system
func sb() { // want `^inconclusive: system sb: the explicit engine stopped after .*: the wall-clock budget of 1ns per system ran out .*; raise it with -budget, or lower -maxwork .*`
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
