// Package ring is a single-producer, single-consumer ring buffer in the
// style of the lock-free queues of Go libraries (a power-of-two buffer
// indexed by two counters), with its size helper in a package of its own.
package ring

import "sync/atomic"

// nextPow2 returns the smallest power of two not below n.
func nextPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

// Ring holds up to a power of two of ints.
type Ring struct {
	head, tail atomic.Uint32
	buf        []int
	mask       uint32
}

// New returns a ring of at least n slots.
func New(n int) *Ring {
	size := nextPow2(n)
	return &Ring{buf: make([]int, size), mask: uint32(size - 1)}
}

// Push adds v and reports whether there was room; only one goroutine
// pushes.
func (r *Ring) Push(v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == r.mask+1 {
		return false
	}
	r.buf[t&r.mask] = v
	r.tail.Store(t + 1)
	return true
}

// Pop removes the oldest value; only one goroutine pops.
func (r *Ring) Pop() (int, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := r.buf[h&r.mask]
	r.head.Store(h + 1)
	return v, true
}

// PushUnordered is Push with the index published before the value: the
// bug the atomics of Push exist to prevent.
func (r *Ring) PushUnordered(v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == r.mask+1 {
		return false
	}
	r.tail.Store(t + 1)
	r.buf[t&r.mask] = v
	return true
}
