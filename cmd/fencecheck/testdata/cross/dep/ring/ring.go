// Package ring is a one-slot mailbox of another module: Put publishes the
// value before the flag, PutEarly the other way round.
package ring

import (
	"sync/atomic"

	"example.com/dep/count"
)

// Box holds one value.
type Box struct {
	full atomic.Bool
	v    int
	puts count.Counter
}

// Put stores v and then marks the box full.
func (b *Box) Put(v int) {
	b.puts.Inc()
	b.v = v
	b.full.Store(true)
}

// PutEarly marks the box full before it stores v.
func (b *Box) PutEarly(v int) {
	b.puts.Inc()
	b.full.Store(true)
	b.v = v
}

// Take waits for the box to be full and returns its value.
func (b *Box) Take() int {
	for !b.full.Load() {
	}
	return b.v
}

// Puts returns how many values were put.
func (b *Box) Puts() int32 { return b.puts.Get() }
