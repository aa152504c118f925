// Package b returns a concrete type behind an interface; only the methods
// that a call through the interface may reach lead further.
package b

import (
	"example.com/reach/c"
	"example.com/reach/d"
)

// Adder adds.
type Adder interface{ Add(k int) }

type counter struct {
	base
	n int
}

type base struct{ last int }

// Add is reached through Adder.
func (b *base) Add(k int) { b.last = c.Twice(k) }

// Report is never called.
func (x *counter) Report() { d.Print(x.n) }

// Add with another signature is not what Adder calls.
func (x *counter) Sub(k int64) { d.Print(int(k)) }

// New returns a counter.
func New() Adder { return &counter{} }
