package locks

import (
	"sync"
	"sync/atomic"
)

// AtomicRing is the single-producer/single-consumer ring with atomic indexes.
// The slots stay plain: the producer's store of tail happens after its write
// of the slot, and the consumer reads the slot only after it loads that tail,
// so the atomics order every access to a slot (no data race).
type AtomicRing struct {
	buf        [2]int32
	head, tail atomic.Int32 //fencecheck:range 0..2
}

// Put appends v; it returns false when the ring is full.
func (r *AtomicRing) Put(v int32) bool {
	t := r.tail.Load()
	if t-r.head.Load() == 2 {
		return false
	}
	r.buf[t%2] = v
	r.tail.Store(t + 1)
	return true
}

// Get removes the oldest value; ok is false when the ring is empty.
func (r *AtomicRing) Get() (int32, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := r.buf[h%2]
	r.head.Store(h + 1)
	return v, true
}

// atomicRingSystem runs a producer of 1, 2 and a consumer that checks the order.
//
//fencecheck:system
func atomicRingSystem() {
	var r AtomicRing
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
