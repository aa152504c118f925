// Package count is a counter that another package of the module keeps in
// its types: a package the users of that one do not import.
package count

import "sync/atomic"

// Counter counts.
type Counter struct {
	n atomic.Int32
}

// Inc adds one.
func (c *Counter) Inc() { c.n.Add(1) }

// Get returns the count.
func (c *Counter) Get() int32 { return c.n.Load() }
