// Package diodebucket follows the one-to-one diode of
// code.cloudfoundry.org/go-diodes: a ring of unsafe.Pointer slots, each
// holding a bucket (the data, itself an unsafe.Pointer to what the writer
// sends, and the write index it was written at), stored with
// atomic.StorePointer and taken with atomic.SwapPointer; the reader drops
// a bucket older than its read index.
//
// Expected, by hand: sendOne is correct and race-free (the reader sees
// either no bucket or the whole bucket, and the value behind its data).
// plainTake reads the slot with a plain load: it races with the writer's
// atomic store, and the bucket's fields it then reads with the writer's
// stores, which nothing orders before them any more (race findings). wrongType converts the data to another
// type than the writer stored: dereferencing it reaches the bad state of
// an unsafe.Pointer read as the wrong type (SC finding).
package diodebucket

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// GenericDataType is what the diode carries.
type GenericDataType unsafe.Pointer

type bucket struct {
	data GenericDataType
	seq  uint64
}

// OneToOne is the diode.
type OneToOne struct {
	buffer     []unsafe.Pointer
	writeIndex uint64
	readIndex  uint64
}

func newOneToOne(size int) *OneToOne {
	return &OneToOne{buffer: make([]unsafe.Pointer, size)}
}

// Set writes data into the next slot.
func (d *OneToOne) Set(data GenericDataType) {
	idx := d.writeIndex % uint64(len(d.buffer))
	b := &bucket{data: data, seq: d.writeIndex} // want `^race: go@\d+ stores b\.data here while go@\d+ loads b\.data` `^race: go@\d+ stores b\.seq here while go@\d+ loads b\.seq`
	d.writeIndex++
	atomic.StorePointer(&d.buffer[idx], unsafe.Pointer(b)) // want `^race: go@\d+ atomically updates d\.buffer\[0\] here while go@\d+ loads d\.buffer\[0\]`
}

// TryNext takes the next bucket, if there is one.
func (d *OneToOne) TryNext() (GenericDataType, bool) {
	idx := d.readIndex % uint64(len(d.buffer))
	b := (*bucket)(atomic.SwapPointer(&d.buffer[idx], nil))
	return d.accept(b)
}

func (d *OneToOne) accept(b *bucket) (GenericDataType, bool) {
	if b == nil || b.seq < d.readIndex {
		return nil, false
	}
	d.readIndex = b.seq + 1
	return b.data, true
}

// tryNextPlain reads the slot with a plain load.
func (d *OneToOne) tryNextPlain() (GenericDataType, bool) {
	idx := d.readIndex % uint64(len(d.buffer))
	b := (*bucket)(d.buffer[idx])
	return d.accept(b)
}

type reading struct{ v, unit int }

//fencecheck:system
func sendOne() {
	d := newOneToOne(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x := 5
		d.Set(GenericDataType(unsafe.Pointer(&x)))
		wg.Done()
	}()
	go func() {
		if v, ok := d.TryNext(); ok && *(*int)(unsafe.Pointer(v)) != 5 {
			panic("torn value")
		}
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func plainTake() {
	d := newOneToOne(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x := 5
		d.Set(GenericDataType(unsafe.Pointer(&x)))
		wg.Done()
	}()
	go func() {
		d.tryNextPlain()
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func wrongType() {
	d := newOneToOne(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x := 5
		d.Set(GenericDataType(unsafe.Pointer(&x)))
		wg.Done()
	}()
	go func() {
		if v, ok := d.TryNext(); ok && (*reading)(unsafe.Pointer(v)).unit != 0 { // want `^SC: system wrongType is wrong even under sequential consistency: the bad state an unsafe.Pointer holding a \*int`
			panic("unit set")
		}
		wg.Done()
	}()
	wg.Wait()
}
