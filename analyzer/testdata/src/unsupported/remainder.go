package unsupported

import "sync"

// remainder divides by a counter that grows without bound (updated in an
// endless loop): the predicate engine takes the system and cannot express
// the remainder, a limit of fencecheck, reported as unsupported at the
// statement that needs it, with the growing value that chose the engine.
//
//fencecheck:system
func remainder() {
	var x, y, r int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for {
			x += 5
			y += 3
		}
	}()
	go func() {
		if y != 0 {
			r = x % y // want `^unsupported in a fencecheck system: the predicate engine cannot take a remainder \(%\) by a value that is not a constant, which system remainder needs here; the predicate engine takes the system because .+ grows without bound: a search of the runs under sequential consistency saw it take \d+ values and more, the last made at remainder\.go:\d+:\d+$`
		}
		wg.Done()
	}()
	wg.Wait()
	if r > 100 {
		panic("too big")
	}
}
