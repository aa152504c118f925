package runtimecalls

import (
	"sync"
	"sync/atomic"
	"time"
)

// The clock's readings are counted along the paths a run may take: ten
// sites, five on each way of a branch, are five readings.

// fiveEachWay: whichever way the branch goes, five readings can all
// differ.
//
//fencecheck:system
func fiveEachWay() {
	var flag atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); flag.Store(true) }()
	go func() {
		defer wg.Done()
		var r1, r2, r3, r4, r5 int64
		if flag.Load() {
			r1 = time.Now().UnixNano()
			r2 = time.Now().UnixNano()
			r3 = time.Now().UnixNano()
			r4 = time.Now().UnixNano()
			r5 = time.Now().UnixNano()
		} else {
			r5 = time.Now().UnixNano()
			r4 = time.Now().UnixNano()
			r3 = time.Now().UnixNano()
			r2 = time.Now().UnixNano()
			r1 = time.Now().UnixNano()
		}
		if r1 < r2 && r2 < r3 && r3 < r4 && r4 < r5 {
			panic("increasing") // want `^SC: system fiveEachWay is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// nineOneWay: nine readings on the way a run takes once the flag is set
// are more than the clock can tell apart: refused where a run reaches the
// ninth.
//
//fencecheck:system
func nineOneWay() { // want `^inconclusive: system nineOneWay: a run reaches more than 8 readings of the clock outside loops`
	var flag atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); flag.Store(true) }()
	go func() {
		defer wg.Done()
		if flag.Load() {
			nineReadingsIncreasing()
		}
	}()
	wg.Wait()
}

func nineReadingsIncreasing() {
	r1 := time.Now().UnixNano()
	r2 := time.Now().UnixNano()
	r3 := time.Now().UnixNano()
	r4 := time.Now().UnixNano()
	r5 := time.Now().UnixNano()
	r6 := time.Now().UnixNano()
	r7 := time.Now().UnixNano()
	r8 := time.Now().UnixNano()
	r9 := time.Now().UnixNano()
	if r1 < r2 && r2 < r3 && r3 < r4 && r4 < r5 && r5 < r6 && r6 < r7 && r7 < r8 && r8 < r9 {
		panic("all distinct")
	}
}

// nineNeverRead: the same way, never taken (nothing sets the flag): no
// run reaches the ninth reading, and the system is decided.
//
//fencecheck:system
func nineNeverRead() {
	var flag atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); flag.Store(false) }()
	go func() {
		defer wg.Done()
		if flag.Load() {
			nineReadingsIncreasing()
		}
	}()
	wg.Wait()
}
