// Package mpmc follows Dmitry Vyukov's bounded MPMC queue as Go libraries
// port it: a ring of cells, each with its own sequence number (initially
// its index), and enqueue and dequeue positions claimed by CAS; a cell is
// free for position pos when its sequence is pos, full when it is pos+1,
// and dequeue frees it for the next lap by storing pos+mask+1.
//
// Expected, by hand: twoProducers is correct and race-free (the CAS gives
// each producer its own position, and a cell's data is read only after its
// sequence says it is full). claimByStore claims the position with a store
// instead of a CAS: both producers can claim position 0 and write the same
// cell (race on its data) and one value is lost (SC finding on the panic).
package mpmc

import (
	"sync"
	"sync/atomic"
)

type cell struct {
	//fencecheck:range 0..3 // two values through two cells
	sequence atomic.Uint64
	data     int
}

// Queue is a bounded multi-producer multi-consumer queue.
type Queue struct {
	buffer []cell
	mask   uint64
	//fencecheck:range 0..2
	enqueue atomic.Uint64
	//fencecheck:range 0..2
	dequeue atomic.Uint64
}

func New(size uint64) *Queue {
	q := &Queue{buffer: make([]cell, size), mask: size - 1}
	for i := range q.buffer {
		q.buffer[i].sequence.Store(uint64(i))
	}
	return q
}

func (q *Queue) Enqueue(v int) bool {
	pos := q.enqueue.Load()
	for {
		c := &q.buffer[pos&q.mask]
		seq := c.sequence.Load()
		switch dif := int64(seq) - int64(pos); {
		case dif == 0:
			if q.enqueue.CompareAndSwap(pos, pos+1) {
				c.data = v
				c.sequence.Store(pos + 1)
				return true
			}
		case dif < 0:
			return false
		}
		pos = q.enqueue.Load()
	}
}

func (q *Queue) Dequeue() (int, bool) {
	pos := q.dequeue.Load()
	for {
		c := &q.buffer[pos&q.mask]
		seq := c.sequence.Load()
		switch dif := int64(seq) - int64(pos+1); {
		case dif == 0:
			if q.dequeue.CompareAndSwap(pos, pos+1) {
				v := c.data
				c.sequence.Store(pos + q.mask + 1)
				return v, true
			}
		case dif < 0:
			return 0, false
		}
		pos = q.dequeue.Load()
	}
}

//fencecheck:system
func twoProducers() {
	q := New(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.Enqueue(1)
		wg.Done()
	}()
	go func() {
		q.Enqueue(2)
		wg.Done()
	}()
	wg.Wait()
	a, _ := q.Dequeue()
	b, _ := q.Dequeue()
	if a+b != 3 {
		panic("lost a value")
	}
}

// enqueueByStore claims its position with a store.
func (q *Queue) enqueueByStore(v int) bool {
	for {
		pos := q.enqueue.Load()
		c := &q.buffer[pos&q.mask]
		seq := c.sequence.Load()
		switch dif := int64(seq) - int64(pos); {
		case dif == 0:
			q.enqueue.Store(pos + 1)
			c.data = v // want `^race: go@\d+ and go@\d+ can both reach this access \(it stores q\.buffer\[0\]\.data\)`
			c.sequence.Store(pos + 1)
			return true
		case dif < 0:
			return false
		}
	}
}

//fencecheck:system
func claimByStore() {
	q := New(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		q.enqueueByStore(1)
		wg.Done()
	}()
	go func() {
		q.enqueueByStore(2)
		wg.Done()
	}()
	wg.Wait()
	a, _ := q.Dequeue()
	b, _ := q.Dequeue()
	if a+b != 3 {
		panic("lost a value") // want `^SC: system claimByStore is wrong even under sequential consistency: `
	}
}
