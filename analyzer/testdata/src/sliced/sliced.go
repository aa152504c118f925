// Package sliced holds lock-free Go over slices, struct values and named
// types: ring buffers over a slice made in the set-up, a struct-valued
// shared cell, a counter of a named type.
package sliced

import (
	"sync"
	"sync/atomic"
)

// ring is a single-producer single-consumer ring buffer with plain head
// and tail counters.
type ring struct {
	buf  []int32
	head int32 //fencecheck:range 0..3
	tail int32 //fencecheck:range 0..3
}

func newRing(n int) *ring {
	return &ring{buf: make([]int32, n)}
}

func (r *ring) put(v int32) {
	for r.tail-r.head == int32(len(r.buf)) { // want `^race: go@\d+ loads r\.head here while go@\d+ stores r\.head`
	}
	r.buf[r.tail%int32(len(r.buf))] = v // want `^race: go@\d+ stores r\.buf\[0\] here while go@\d+ loads r\.buf\[0\] `
	r.tail++                            // want `^race: go@\d+ stores r\.tail here while go@\d+ loads r\.tail`
}

func (r *ring) get() int32 {
	for r.tail == r.head {
	}
	v := r.buf[r.head%int32(len(r.buf))]
	r.head++
	return v
}

//fencecheck:system
func plainRing() {
	r := newRing(2)
	go func() {
		for v := int32(1); v <= 3; v++ {
			r.put(v)
		}
	}()
	go func() {
		for want := int32(1); want <= 3; want++ {
			if r.get() != want {
				panic("lost element")
			}
		}
	}()
}

// atomicRing is the same ring buffer with atomic head and tail.
type atomicRing struct {
	buf  []int32
	head atomic.Int32 //fencecheck:range 0..3
	tail atomic.Int32 //fencecheck:range 0..3
}

func (r *atomicRing) put(v int32) {
	t := r.tail.Load()
	for t-r.head.Load() == int32(len(r.buf)) {
	}
	r.buf[t%int32(len(r.buf))] = v
	r.tail.Store(t + 1)
}

func (r *atomicRing) get() int32 {
	h := r.head.Load()
	for r.tail.Load() == h {
	}
	v := r.buf[h%int32(len(r.buf))]
	r.head.Store(h + 1)
	return v
}

//fencecheck:system
func atomicRingSystem() {
	r := &atomicRing{buf: make([]int32, 2)}
	go func() {
		for v := int32(1); v <= 3; v++ {
			r.put(v)
		}
	}()
	go func() {
		for want := int32(1); want <= 3; want++ {
			if r.get() != want {
				panic("lost element")
			}
		}
	}()
}

type point struct{ x, y int32 }

type cellPlain struct{ p point }

//fencecheck:system
func tornPoint() {
	var c cellPlain
	go func() { c.p = point{1, 1} }() // want `^race: go@\d+ stores c\.p\.x here while go@\d+ loads c\.p\.x `
	go func() {
		v := c.p
		if v.x != v.y {
			panic("torn read") // want `^SC: system tornPoint is wrong even under sequential consistency`
		}
	}()
}

type cellLocked struct {
	mu sync.Mutex
	p  point
}

//fencecheck:system
func lockedPoint() {
	var c cellLocked
	go func() {
		c.mu.Lock()
		c.p = point{1, 1}
		c.mu.Unlock()
	}()
	go func() {
		c.mu.Lock()
		v := c.p
		c.mu.Unlock()
		if v.x != v.y {
			panic("torn read")
		}
	}()
}

// count is a counter of a named type, updated atomically through a
// conversion to its underlying type.
type count uint32

//fencecheck:system
func namedCounter() {
	var n count
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			atomic.AddUint32((*uint32)(&n), 1)
			wg.Done()
		}()
	}
	wg.Wait()
	if n != count(2) {
		panic("lost update")
	}
}
