// Package counter has no fencecheck system: a commit that touches only this
// package does not run fencecheck on the others.
package counter

import "sync/atomic"

// Counter counts events from many goroutines.
type Counter struct{ n atomic.Int64 }

// Inc adds one event.
func (c *Counter) Inc() { c.n.Add(1) }

// Load returns the number of events so far.
func (c *Counter) Load() int64 { return c.n.Load() }
