// Package ringatomic is the ring buffer with atomic indexes and plain slots
// (examples/locks): the indexes order every access to a slot.
//
// Expected: race-free.
package ringatomic

import (
	"sync"
	"sync/atomic"
)

// Ring is a ring buffer of capacity 2.
type Ring struct {
	buf [2]int32
	// head is the next slot to read and tail the next slot to write; the
	// system sends two values.
	//fencecheck:range 0..2
	head, tail atomic.Int32
}

// Put appends v; it reports false when the ring is full.
func (r *Ring) Put(v int32) bool {
	t := r.tail.Load()
	if t-r.head.Load() == 2 {
		return false
	}
	r.buf[t%2] = v
	r.tail.Store(t + 1)
	return true
}

// Get removes the oldest value; it reports false when the ring is empty.
func (r *Ring) Get() (int32, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := r.buf[h%2]
	r.head.Store(h + 1)
	return v, true
}

// system sends 1 and 2 through the ring.
//
//fencecheck:system
func system() {
	var r Ring
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.Put(1)
		r.Put(2)
		wg.Done()
	}()
	go func() {
		want := int32(1)
		for want <= 2 {
			if v, ok := r.Get(); ok {
				if v != want {
					panic("ring: out of order")
				}
				want++
			}
		}
		wg.Done()
	}()
	wg.Wait()
}
