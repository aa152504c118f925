// Package localrange has //fencecheck:range on goroutine-local variables:
// kept in registers, in memory private to a goroutine, in the system
// function after its spawns, in a function inlined into a goroutine.
package localrange

import (
	"sync"
	"sync/atomic"
)

// spin counts the iterations of a spin loop, which no constant bounds: the
// range makes the count finite, and a fourth iteration leaves it.
//
//fencecheck:system
func spin() {
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n := 0 //fencecheck:range 0..3
		for flag.Load() == 0 {
			n++ // leaves the range
		}
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
}

// saturate counts up to the end of its range and no further.
//
//fencecheck:system
func saturate() {
	var flag atomic.Int32
	var x int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n := int32(0) //fencecheck:range 0..3
		for flag.Load() == 0 {
			if n < 3 {
				n++
			}
		}
		x = n
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
	_ = x
}

// counted stays in its range: three iterations of a constant loop.
//
//fencecheck:system
func counted() {
	var x int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		var n int32 //fencecheck:range 0..3
		for i := 0; i < 3; i++ {
			n += 1
		}
		x = n
		wg.Done()
	}()
	wg.Wait()
	_ = x
}

// private keeps the counter in memory private to the goroutine (its
// address is taken).
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
			*p += 1
		}
		wg.Done()
	}()
	flag.Store(1)
	wg.Wait()
}

// mainCount counts in the system function, after its spawn.
//
//fencecheck:system
func mainCount() {
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		flag.Store(1)
		wg.Done()
	}()
	k := 0 //fencecheck:range 0..1
	for flag.Load() == 0 {
		k++
	}
	wg.Wait()
}

func next(n int32) int32 {
	m := n + 1 //fencecheck:range 0..1
	return m
}

// inlined bounds a local of a function a goroutine calls.
//
//fencecheck:system
func inlined() {
	var x int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		x = next(atomic.LoadInt32(&x) + 1)
		wg.Done()
	}()
	wg.Wait()
}

// zeroOutside declares a variable whose zero value is outside its range.
//
//fencecheck:system
func zeroOutside() {
	var x int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		var k int32 //fencecheck:range 1..3
		k = 2
		x = k
		wg.Done()
	}()
	wg.Wait()
	_ = x
}
