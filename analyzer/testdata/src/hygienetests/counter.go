// Package hygienetests keeps its system in a test file: the variant of the
// package without tests, which standalone drivers also analyse, must not
// report the package's directives as unused.
package hygienetests

import "sync/atomic"

// counter counts with an atomic: n is bounded by a range, and the store of
// done is never to get a barrier.
type counter struct {
	n    atomic.Int32 //fencecheck:range 0..2
	done int32
}

func (c *counter) inc() {
	c.n.Add(1)
}

func (c *counter) finish() {
	c.done = 1 //fencecheck:nofence
}
