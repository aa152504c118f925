// Package rangeint has range-over-int loops (Go 1.22), each system paired
// with one that writes the same loop as a three-clause for loop: go/ssa
// builds a range-over-int loop as a single block that loops to itself, and
// the two must lower to the same behaviour.
package rangeint

import "sync"

// countRange counts to 3, then sets a flag after the loop.
//
//fencecheck:system
func countRange() {
	var n, done int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for range 3 {
			n++
		}
		done = 1
		wg.Done()
	}()
	wg.Wait()
	if n != 3 || done != 1 {
		panic("wrong count")
	}
}

// countFor is countRange with a three-clause loop.
//
//fencecheck:system
func countFor() {
	var n, done int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for j := 0; j < 3; j++ {
			n++
		}
		done = 1
		wg.Done()
	}()
	wg.Wait()
	if n != 3 || done != 1 {
		panic("wrong count")
	}
}

// indexRange stores through the loop variable, then after the loop.
//
//fencecheck:system
func indexRange() {
	var a [2]int32
	var sum, after int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for j := range 2 {
			a[j] = 1
			sum += j
		}
		after = 1
		wg.Done()
	}()
	wg.Wait()
	if a[0] != 1 || a[1] != 1 || sum != 1 || after != 1 {
		panic("wrong stores")
	}
}

// indexFor is indexRange with a three-clause loop.
//
//fencecheck:system
func indexFor() {
	var a [2]int32
	var sum, after int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for j := 0; j < 2; j++ {
			a[j] = 1
			sum += j
		}
		after = 1
		wg.Done()
	}()
	wg.Wait()
	if a[0] != 1 || a[1] != 1 || sum != 1 || after != 1 {
		panic("wrong stores")
	}
}

// boundRange ranges over a bound read at run time, which another goroutine
// may change first.
//
//fencecheck:system
func boundRange() {
	var k, n, done int32
	k = 1
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { k = 2; wg.Done() }()
	go func() {
		m := k
		for range m {
			n++
		}
		done = 1
		wg.Done()
	}()
	wg.Wait()
	if n < 1 || n > 2 || done != 1 {
		panic("wrong count")
	}
}

// boundFor is boundRange with a three-clause loop.
//
//fencecheck:system
func boundFor() {
	var k, n, done int32
	k = 1
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { k = 2; wg.Done() }()
	go func() {
		m := k
		for j := int32(0); j < m; j++ {
			n++
		}
		done = 1
		wg.Done()
	}()
	wg.Wait()
	if n < 1 || n > 2 || done != 1 {
		panic("wrong count")
	}
}

// count adds k to *p one at a time.
func count(p *int32, k int) {
	for range k {
		*p++
	}
}

// countFor3 is count with a three-clause loop.
func countFor3(p *int32, k int) {
	for j := 0; j < k; j++ {
		*p++
	}
}

// inlinedRange ranges in an inlined function, with a constant bound, and
// in the system function after the spawns.
//
//fencecheck:system
func inlinedRange() {
	var n, m, done int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		count(&n, 2)
		done = 1
		wg.Done()
	}()
	for range 2 {
		m++
	}
	wg.Wait()
	if n != 2 || m != 2 || done != 1 {
		panic("wrong count")
	}
}

// inlinedFor is inlinedRange with three-clause loops.
//
//fencecheck:system
func inlinedFor() {
	var n, m, done int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		countFor3(&n, 2)
		done = 1
		wg.Done()
	}()
	for j := 0; j < 2; j++ {
		m++
	}
	wg.Wait()
	if n != 2 || m != 2 || done != 1 {
		panic("wrong count")
	}
}

// raceAfter writes x after the loop while the system function reads it:
// a data race, which needs the code after the loop to be reachable.
//
//fencecheck:system
func raceAfter() {
	var x, n int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for range 3 {
			n++
		}
		x = 1
		wg.Done()
	}()
	r := x
	wg.Wait()
	if r > 1 || n != 3 {
		panic("impossible value")
	}
}

// spawnRange spawns a goroutine per iteration of a range-over-int loop.
//
//fencecheck:system
func spawnRange() {
	var hits [2]int32
	for i := range 2 {
		go func() { hits[i] = 1 }()
	}
}

// gotoSelf loops with goto in a single block that jumps to itself, as
// go/ssa builds range-over-int loops.
//
//fencecheck:system
func gotoSelf() {
	var n, done int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c := int32(0)
	again:
		c++
		if c < 3 {
			goto again
		}
		n = c
		done = 1
		wg.Done()
	}()
	wg.Wait()
	if n != 3 || done != 1 {
		panic("wrong count")
	}
}
