// Package localrange bounds goroutine-local variables with
// //fencecheck:range: a value outside the range is a finding, as for a
// shared variable, and a range that holds makes the locals finite.
package localrange

import (
	"sync"
	"sync/atomic"
)

// spin counts the iterations of a spin loop in a register: a fourth one
// leaves the range.
//
//fencecheck:system
func spin() {
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n := 0 //fencecheck:range 0..3
		for flag.Load() == 0 {
			n++ // want `^range: system spin is wrong even under sequential consistency: n takes the value 4 here, outside its //fencecheck:range 0\.\.3`
		}
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
}

// private counts in memory private to the goroutine.
//
//fencecheck:system
func private() {
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		var n int32 //fencecheck:range 0..2
		p := &n
		for flag.Load() == 0 {
			*p += 1 // want `^range: system private is wrong even under sequential consistency: n takes the value 3 here, outside its //fencecheck:range 0\.\.2`
		}
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
}

// saturate counts up to the end of its range and no further, and hands
// the count over through an atomic: correct.
//
//fencecheck:system
func saturate() {
	var flag, count atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n := int32(0) //fencecheck:range 0..3
		for flag.Load() == 0 {
			if n < 3 {
				n++
			}
		}
		count.Store(n)
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
	if count.Load() > 3 {
		panic("count out of range")
	}
}
