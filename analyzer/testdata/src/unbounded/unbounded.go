package unbounded

import "sync"

// counters is store buffering on two counters without a
// //fencecheck:range: their domains are not finite, so the predicate engine
// takes the system.
//
//fencecheck:system
func counters() {
	var x, y, r0, r1 int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x += 5 // want `^x86-TSO: the store to x can still sit in the store buffer when the load of y at unbounded\.go:16:8 reads memory`
		r0 = y
		wg.Done()
	}()
	go func() {
		y += 7 // want `^x86-TSO: the store to y`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}

// increments is correct: the loads come after locked increments.
//
//fencecheck:system
func increments() {
	var x, y, r0, r1 int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x += 5
		wg.Done()
	}()
	go func() {
		y += 7
		wg.Done()
	}()
	wg.Wait()
	r0, r1 = x, y
	if r0 != 5 || r1 != 7 {
		panic("lost a store")
	}
}
