// Package hashed is a counter whose constructor hashes its name through an
// unsafe conversion of a string header into a []byte, as
// github.com/cespare/xxhash/v2 does: code the set-up cannot run.
package hashed

import (
	"sync/atomic"
	"unsafe"
)

type sliceHeader struct {
	s   string
	cap int
}

func sum(s string) uint64 {
	b := *(*[]byte)(unsafe.Pointer(&sliceHeader{s, len(s)}))
	var h uint64 = 14695981039346656037
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Counter counts, and is known by the hash of its name.
type Counter struct {
	id  uint64
	val atomic.Int64
}

// New returns a counter named name.
func New(name string) *Counter {
	return &Counter{id: sum(name)}
}

// Inc adds one.
func (c *Counter) Inc() { c.val.Add(1) }

// Load returns the count.
func (c *Counter) Load() int64 { return c.val.Load() }

// ID returns the hash of the name.
func (c *Counter) ID() uint64 { return c.id }

// Sum returns the hash of s.
func Sum(s string) uint64 { return sum(s) }
