// Package appends has systems that append to slices with room, in the
// set-up and in goroutines.
package appends

import (
	"sync"
	"sync/atomic"
)

// setupLoop fills a slice by append in the set-up, within its capacity;
// two goroutines add its elements.
//
//fencecheck:system
func setupLoop() {
	xs := make([]int32, 0, 3)
	for i := range 3 {
		xs = append(xs, int32(i+1))
	}
	var sum atomic.Int32 //fencecheck:range 0..6
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		sum.Add(xs[0] + xs[1])
		wg.Done()
	}()
	go func() {
		sum.Add(xs[2])
		wg.Done()
	}()
	wg.Wait()
	if sum.Load() != 6 || len(xs) != 3 {
		panic("wrong sum")
	}
}

// sharedArray: a goroutine appends to a slice with room, writing the next
// cell of the shared backing array; seen after the wait.
//
//fencecheck:system
func sharedArray() {
	buf := make([]int32, 1, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		w := append(buf, 7)
		w[0] = 1
		wg.Done()
	}()
	wg.Wait()
	full := buf[:2]
	if full[1] != 7 || buf[0] != 1 {
		panic("lost the append")
	}
}

// sharedNoWait reads the appended cell without waiting.
//
//fencecheck:system
func sharedNoWait() {
	buf := make([]int32, 1, 2)
	go func() {
		_ = append(buf, 7) // want `^race: go@\d+ stores buf\[1\] here while main loads buf\[1\]`
	}()
	full := buf[:2]
	if full[1] != 7 {
		panic("not yet") // want `^SC: system sharedNoWait is wrong even under sequential consistency`
	}
}

// local appends to a goroutine's own slice.
//
//fencecheck:system
func local() {
	var out atomic.Int32 //fencecheck:range 0..9
	go func() {
		s := make([]int32, 0, 2)
		s = append(s, 3, 4)
		out.Store(s[0] + s[1] + int32(len(s)))
	}()
	if v := out.Load(); v != 0 && v != 9 {
		panic("wrong append")
	}
}
