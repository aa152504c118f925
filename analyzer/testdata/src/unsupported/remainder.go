package unsupported

import "sync"

// remainder divides by a counter without a range (updated in a loop, so
// its values have no bound the inference can see): the predicate engine
// takes the system and cannot express the remainder, a limit of
// fencecheck, reported as unsupported at the statement that needs it.
//
//fencecheck:system
func remainder() {
	var x, y, r int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for x < 100 {
			x += 5
			y += 3
		}
		wg.Done()
	}()
	go func() {
		if y != 0 {
			r = x % y // want `^unsupported in a fencecheck system: the predicate engine cannot take a remainder \(%\) by a value that is not a constant, which system remainder needs here; the predicate engine takes the system because x, y and r have no finite domain: a //fencecheck:range LO\.\.HI on them would let the exact engines decide it$`
		}
		wg.Done()
	}()
	wg.Wait()
	if r > 100 {
		panic("too big")
	}
}
