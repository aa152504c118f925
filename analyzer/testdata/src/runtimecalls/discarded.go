package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// Reads whose value nothing uses still check their index or pointer, as
// Go does: _ = a[i] is the usual hint that removes later bounds checks.

// discardedIndex: the index another goroutine chose is past the
// goroutine's own slice.
//
//fencecheck:system
func discardedIndex() {
	var wg sync.WaitGroup
	var v atomic.Int32
	v.Store(2)
	wg.Add(1)
	go func() {
		defer wg.Done()
		i := v.Load()
		a := []int{1}
		_ = a[i] // want `^SC: system discardedIndex is wrong even under sequential consistency: the bad state index out of range is reached here`
	}()
	wg.Wait()
}

// discardedIndexInRange: the same hint, in range.
//
//fencecheck:system
func discardedIndexInRange() {
	var wg sync.WaitGroup
	var v atomic.Int32
	v.Store(1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		i := v.Load()
		a := []int{1, 2}
		_ = a[i]
	}()
	wg.Wait()
}

type discardNode struct{ v int }

// discardedDeref: _ = *q of a nil pointer panics.
//
//fencecheck:system
func discardedDeref() {
	var wg sync.WaitGroup
	var p atomic.Pointer[discardNode]
	wg.Add(1)
	go func() {
		defer wg.Done()
		q := p.Load()
		_ = *q // want `^SC: system discardedDeref is wrong even under sequential consistency: the bad state nil pointer dereference is reached here`
	}()
	wg.Wait()
}

// rangeOverNilArray: an index-only range over *q of constant length does
// not evaluate *q, and does not panic for a nil q.
//
//fencecheck:system
func rangeOverNilArray() {
	var wg sync.WaitGroup
	var p atomic.Pointer[[2]int]
	var n atomic.Int32
	wg.Add(1)
	go func() {
		defer wg.Done()
		q := p.Load()
		for i := range *q {
			n.Add(int32(i))
		}
	}()
	wg.Wait()
}
