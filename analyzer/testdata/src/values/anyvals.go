// Package values holds systems over values and memory of everyday Go:
// interface values holding integers chosen at run time, pointers to fields
// and array elements stored in memory and converted through
// unsafe.Pointer, error results that depend on the path taken, a make
// whose length is known only at run time on a path never taken, go
// statements in constant-bound loops inside goroutines and stores between
// go statements. Each construct has a correct system and a buggy twin.
package values

import (
	"sync"
	"sync/atomic"
)

// ring is a queue of interface values guarded by a mutex, as a work queue
// of any.
type ring struct {
	mu         sync.Mutex
	buf        [4]any
	head, tail int
	count      int
}

func (r *ring) put(v any) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.count == len(r.buf) {
		return false
	}
	r.buf[r.tail] = v // want `^race: go@\d+ stores r\.buf\[0\] here while go@\d+ loads r\.buf\[0\]`
	r.tail = (r.tail + 1) % len(r.buf)
	r.count++ // want `^race: go@\d+ stores r\.count here while go@\d+ loads r\.count`
	return true
}

func (r *ring) get() (any, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.count == 0 {
		return nil, false
	}
	v := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) % len(r.buf)
	r.count--
	return v, true
}

// anyQueue sends the integers a goroutine computes (its loop counter)
// through a queue of any; the consumer tells them apart with a type switch.
//
//fencecheck:system
func anyQueue() {
	var r ring
	var sum int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2 {
			r.put(i + 1)
		}
		r.put("done")
	}()
	go func() {
		defer wg.Done()
		for got := 0; got < 3; {
			v, ok := r.get()
			if !ok {
				continue
			}
			got++
			switch x := v.(type) {
			case int:
				sum += x
			case string:
				if x != "done" {
					panic("unknown text")
				}
			}
		}
	}()
	wg.Wait()
	if sum != 3 {
		panic("lost a value")
	}
}

// peek reads the head without the lock.
func (r *ring) peek() any {
	if r.count == 0 {
		return nil
	}
	return r.buf[r.head]
}

// anyQueueWrong peeks at the queue without its lock.
//
//fencecheck:system
func anyQueueWrong() {
	var r ring
	var sum int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2 {
			r.put(i + 1)
		}
	}()
	go func() {
		defer wg.Done()
		if v, ok := r.peek().(int); ok {
			sum += v
		}
	}()
	wg.Wait()
	if sum > 1 {
		panic("peeked past the head")
	}
}

// slot holds the last value a goroutine published.
type slot struct {
	v any
}

// anySlotRace publishes a run-time integer in an any field without the
// lock the reader takes.
//
//fencecheck:system
func anySlotRace() {
	var mu sync.Mutex
	var s slot
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.v = int(n.Add(1)) // want `^race: go@\d+ stores s\.v here while go@\d+ loads s\.v`
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		if x, ok := s.v.(int); ok && x != 1 {
			panic("not the first")
		}
		mu.Unlock()
	}()
	wg.Wait()
}

// anySlot is anySlotRace with the lock on both sides.
//
//fencecheck:system
func anySlot() {
	var mu sync.Mutex
	var s slot
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		k := int(n.Add(1))
		mu.Lock()
		s.v = k
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		if x, ok := s.v.(int); ok && x != 1 {
			panic("not the first")
		}
		mu.Unlock()
	}()
	wg.Wait()
}

// tagged is a struct value with an interface field, built in a goroutine
// and copied into shared memory whole.
type tagged struct {
	tag any
	n   int
}

// anyInStruct builds a tagged value around an integer it computes and
// publishes it under a lock.
//
//fencecheck:system
func anyInStruct() {
	var mu sync.Mutex
	var shared tagged
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var t tagged
		t.tag = int(n.Add(1))
		t.n = 1
		mu.Lock()
		shared = t
		mu.Unlock()
	}()
	mu.Lock()
	if x, ok := shared.tag.(int); ok && x != shared.n {
		panic("tag and count disagree")
	}
	mu.Unlock()
	wg.Wait()
}

// anyInStructWrong publishes without the lock.
//
//fencecheck:system
func anyInStructWrong() {
	var mu sync.Mutex
	var shared tagged
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var t tagged
		t.tag = int(n.Add(1))
		t.n = 1
		shared = t // want `^race: go@\d+ stores shared\.tag here while main loads shared\.tag` `^race: go@\d+ stores shared\.n here while main loads shared\.n`
	}()
	mu.Lock()
	if x, ok := shared.tag.(int); ok && x != shared.n {
		panic("tag and count disagree") // want `^SC: system anyInStructWrong is wrong even under sequential consistency`
	}
	mu.Unlock()
	wg.Wait()
}
