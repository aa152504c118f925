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

// rangeOverKnownNil: the same with a pointer known to be nil, in a
// goroutine and in the set-up.
//
//fencecheck:system
func rangeOverKnownNil() {
	var wg sync.WaitGroup
	var p *[3]int
	n := 0
	for i := range *p {
		n += i
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		var q *[3]int
		for i := range *q {
			_ = i
		}
	}()
	wg.Wait()
}

// rangeTwoVariables: with two iteration variables (one blank) Go evaluates
// *q, and a nil q panics.
//
//fencecheck:system
func rangeTwoVariables() {
	var wg sync.WaitGroup
	var p atomic.Pointer[[2]int]
	wg.Add(1)
	go func() {
		defer wg.Done()
		q := p.Load()
		for i, _ := range *q { // want `^SC: system rangeTwoVariables is wrong even under sequential consistency: the bad state nil pointer dereference is reached here`
			_ = i
		}
	}()
	wg.Wait()
}

// rangeOverReceived: a range expression with a receive in it is
// evaluated: the nil received panics.
//
//fencecheck:system
func rangeOverReceived() {
	var wg sync.WaitGroup
	ch := make(chan *[2]int, 1)
	wg.Add(2)
	go func() { defer wg.Done(); ch <- nil }()
	go func() {
		defer wg.Done()
		for i := range *<-ch { // want `^SC: system rangeOverReceived is wrong even under sequential consistency: the bad state nil pointer dereference is reached here`
			_ = i
		}
	}()
	wg.Wait()
}
