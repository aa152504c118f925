// Package spscring follows the single-producer single-consumer ring of the
// Linux kernel's kfifo and of its Go ports: free-running head and tail
// counters, a power-of-two slice indexed by counter&mask, the producer the
// only writer of tail and the consumer the only writer of head; full when
// tail-head equals the length.
//
// Expected, by hand: pushPop is correct and race-free (a slot is written
// before the tail store that publishes it and read before the head store
// that frees it). publishEarly stores the tail before the slot: the
// consumer reads the slot while the producer writes it (race on
// r.buf[0]) and may take the old 0 (SC finding on the panic).
package spscring

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Ring is a bounded SPSC queue.
type Ring struct {
	buf  []int32
	mask uint32
	//fencecheck:range 0..3 // the drivers push at most three values
	head atomic.Uint32 // next slot to read
	//fencecheck:range 0..3
	tail atomic.Uint32 // next slot to write
}

func NewRing(size uint32) *Ring {
	return &Ring{buf: make([]int32, size), mask: size - 1}
}

func (r *Ring) Push(v int32) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint32(len(r.buf)) {
		return false
	}
	r.buf[t&r.mask] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Ring) Pop() (int32, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := r.buf[h&r.mask] // want `^race: go@\d+ loads r\.buf\[0\] here`
	r.head.Store(h + 1)
	return v, true
}

//fencecheck:system
func pushPop() {
	r := NewRing(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for v := int32(1); v <= 3; v++ {
			for !r.Push(v) {
				runtime.Gosched()
			}
		}
		wg.Done()
	}()
	go func() {
		for want := int32(1); want <= 3; want++ {
			v, ok := r.Pop()
			for !ok {
				runtime.Gosched()
				v, ok = r.Pop()
			}
			if v != want {
				panic("out of order")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// pushEarly publishes the slot before it writes it.
func (r *Ring) pushEarly(v int32) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint32(len(r.buf)) {
		return false
	}
	r.tail.Store(t + 1)
	r.buf[t&r.mask] = v
	return true
}

//fencecheck:system
func publishEarly() {
	r := NewRing(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.pushEarly(1)
		wg.Done()
	}()
	go func() {
		v, ok := r.Pop()
		for !ok {
			runtime.Gosched()
			v, ok = r.Pop()
		}
		if v != 1 {
			panic("read an unwritten slot") // want `^SC: system publishEarly is wrong even under sequential consistency: `
		}
		wg.Done()
	}()
	wg.Wait()
}
