// Package discoveredranged is package discovered with the domains of its
// counters declared by //fencecheck:range: the verdicts must be the same.
package discoveredranged

import (
	"sync"
	"sync/atomic"
)

const iters = 50

func rounds() int { return 200 }

// add counts to n in a local int and publishes the count.
func add(n int, total *atomic.Int64, wg *sync.WaitGroup) {
	c := 0                   //fencecheck:range 0..200
	for i := 0; i < n; i++ { //fencecheck:range 0..200
		c++
	}
	total.Add(int64(c))
	wg.Done()
}

// param: the bound is a parameter, 2 and 3.
//
//fencecheck:system
func param() {
	var total atomic.Int64 //fencecheck:range 0..200
	var wg sync.WaitGroup
	wg.Add(2)
	go add(2, &total, &wg)
	go add(3, &total, &wg)
	wg.Wait()
	if total.Load() != 5 {
		panic("lost a count")
	}
}

// call: the bound is what a call returns, 200.
//
//fencecheck:system
func call() {
	var total atomic.Int64 //fencecheck:range 0..200
	var wg sync.WaitGroup
	wg.Add(1)
	go add(rounds(), &total, &wg)
	wg.Wait()
	if total.Load() != 200 {
		panic("lost a count")
	}
}

// locked: a shared int counted under a mutex by two goroutines, a
// constant number of times each.
//
//fencecheck:system
func locked() {
	var mu sync.Mutex
	count := 0 //fencecheck:range 0..100
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func() {
			for i := 0; i < iters; i++ { //fencecheck:range 0..50
				mu.Lock()
				count++
				mu.Unlock()
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 2*iters {
		panic("lost an update")
	}
}

// steps: two goroutines step shared counters up to a bound in strides,
// then read each other's: store buffering, which x86-TSO allows.
//
//fencecheck:system
func steps() {
	var x, y, r0, r1 int64 //fencecheck:range 0..21
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for x < 20 {
			x += 5 // want `^race: go@\d+ stores x here while go@\d+ loads x at discoveredranged\.go:\d+:\d+, and nothing orders the two \(system steps\)$` `^x86-TSO: the store to x can still sit in the store buffer when the load of y at discoveredranged\.go:\d+:\d+ reads memory \(system steps\)$`
		}
		r0 = y // want `^race: go@\d+ loads y here while go@\d+ stores y at discoveredranged\.go:\d+:\d+, and nothing orders the two \(system steps\)$`
		wg.Done()
	}()
	go func() {
		for y < 21 {
			y += 7 // want `^x86-TSO: the store to y can still sit in the store buffer when the load of [xy] at discoveredranged\.go:\d+:\d+ reads memory \(system steps\)$`
		}
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
