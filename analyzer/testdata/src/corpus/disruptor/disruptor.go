// Package disruptor follows the Go ports of the LMAX Disruptor (for
// example github.com/smartystreets-prototypes/go-disruptor): a ring of
// slots indexed by sequence&mask, a writer that reserves a sequence only
// when the reader's cursor is less than a ring's length behind, stores the
// slot and then commits its cursor, and a reader that waits on the writer's
// cursor (the sequence barrier), reads the slot and then advances its own.
//
// Expected, by hand: publishThree is correct and race-free (a slot is
// written only after the reader's cursor released it and read only after
// the writer's cursor published it; sequences stay below 4 with three
// messages). commitFirst commits the cursor before storing the slot: the
// reader can load the slot while the writer stores it (race on the slot)
// and see an old value (SC finding on the reader's panic).
package disruptor

import (
	"runtime"
	"sync"
	"sync/atomic"
)

const (
	bufferSize = 2
	bufferMask = bufferSize - 1
)

// Cursor is a sequence number; the ports pad it to a cache line.
type Cursor struct {
	sequence atomic.Int64
}

func (c *Cursor) Load() int64     { return c.sequence.Load() }
func (c *Cursor) Store(seq int64) { c.sequence.Store(seq) }

// Writer publishes into the ring.
type Writer struct {
	written  *Cursor // the writer's published sequence
	upstream *Cursor // the reader's consumed sequence
	ring     []int64
	previous int64
}

func (w *Writer) Reserve() int64 {
	next := w.previous + 1
	for next-bufferSize > w.upstream.Load() {
		runtime.Gosched()
	}
	w.previous = next
	return next
}

func (w *Writer) Commit(seq int64) {
	w.written.Store(seq)
}

func (w *Writer) Publish(v int64) {
	seq := w.Reserve()
	w.ring[seq&bufferMask] = v
	w.Commit(seq)
}

// Reader consumes from the ring.
type Reader struct {
	read     *Cursor // the reader's consumed sequence
	upstream *Cursor // the writer's published sequence
	ring     []int64
}

func (r *Reader) Next() int64 {
	next := r.read.Load() + 1
	for next > r.upstream.Load() {
		runtime.Gosched()
	}
	v := r.ring[next&bufferMask] // want `^race: go@\d+ loads ring\[1\] here`
	r.read.Store(next)
	return v
}

func newPair() (*Writer, *Reader) {
	written, read := &Cursor{}, &Cursor{}
	ring := make([]int64, bufferSize)
	return &Writer{written: written, upstream: read, ring: ring},
		&Reader{read: read, upstream: written, ring: ring}
}

//fencecheck:system
func publishThree() {
	w, r := newPair()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := int64(1); i <= 3; i++ {
			w.Publish(i * 10)
		}
		wg.Done()
	}()
	go func() {
		for i := int64(1); i <= 3; i++ {
			if r.Next() != i*10 {
				panic("out of order")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// publishCommitFirst commits before it stores the slot.
func (w *Writer) publishCommitFirst(v int64) {
	seq := w.Reserve()
	w.Commit(seq)
	w.ring[seq&bufferMask] = v
}

//fencecheck:system
func commitFirst() {
	w, r := newPair()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		w.publishCommitFirst(10)
		wg.Done()
	}()
	go func() {
		if r.Next() != 10 {
			panic("read an unpublished slot") // want `^SC: system commitFirst is wrong even under sequential consistency: `
		}
		wg.Done()
	}()
	wg.Wait()
}
