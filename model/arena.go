package model

import "slices"

// Arena is storage for the states that [Program.ProcSuccessorsIn]
// computes: the arrays a step copies before changing them (locations,
// registers, memory, store buffers) are carved from a few large ones
// instead of being allocated one by one. After [Arena.Reset] the arrays
// are handed out again, so every state computed in the arena before is
// overwritten by the next steps: a search that takes a successor's key at
// once and forgets the state by the next expansion computes its steps
// without allocating. Its zero value is ready to use; a nil *Arena
// allocates each array on the heap.
type Arena struct {
	ints pool[int]
	vals pool[int64]
	rows pool[[]int64]
	bufs pool[[]BufEntry]
	ents pool[BufEntry]
}

// Reset hands the arena's arrays out again: the states computed in it
// before must no longer be used.
func (a *Arena) Reset() {
	if a == nil {
		return
	}
	a.ints.reset()
	a.vals.reset()
	a.rows.reset()
	a.bufs.reset()
	a.ents.reset()
}

// pool hands out slices of one array, which it replaces by a larger one
// when full (the slices handed out keep the old one).
type pool[T any] struct{ buf []T }

func (p *pool[T]) reset() { clear(p.buf); p.buf = p.buf[:0] }

// make returns a slice of n zero elements, capped at n.
func (p *pool[T]) make(n int) []T {
	if len(p.buf)+n > cap(p.buf) {
		p.buf = make([]T, 0, max(2*cap(p.buf), 256, n))
	}
	k := len(p.buf)
	p.buf = p.buf[:k+n]
	return p.buf[k : k+n : k+n]
}

// clone returns a copy of s, capped at its length (nil for nil).
func (p *pool[T]) clone(s []T) []T {
	if s == nil {
		return nil
	}
	c := p.make(len(s))
	copy(c, s)
	return c
}

// CloneInts returns a copy of s (a state's locations) in the arena, or on
// the heap for a nil arena; CloneVals and CloneRows do so for registers
// or memory, and for the registers of all processes (a copy of the outer
// slice only). Code that changes the states a search computes in an arena
// (canonical forms) copies with them.
func (a *Arena) CloneInts(s []int) []int {
	if a == nil {
		return slices.Clone(s)
	}
	return a.ints.clone(s)
}

// CloneVals: see [Arena.CloneInts].
func (a *Arena) CloneVals(s []int64) []int64 {
	if a == nil {
		return slices.Clone(s)
	}
	return a.vals.clone(s)
}

// CloneRows: see [Arena.CloneInts].
func (a *Arena) CloneRows(s [][]int64) [][]int64 {
	if a == nil {
		return slices.Clone(s)
	}
	return a.rows.clone(s)
}

func (a *Arena) cloneBufs(s [][]BufEntry) [][]BufEntry {
	if a == nil {
		return slices.Clone(s)
	}
	return a.bufs.clone(s)
}

func (a *Arena) makeEntries(n int) []BufEntry {
	if a == nil {
		return make([]BufEntry, n)
	}
	return a.ents.make(n)
}
