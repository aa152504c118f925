// Package pooldequeue follows poolDequeue of Go's sync package (the
// per-P queue under sync.Pool): a fixed ring of interface-valued slots
// and one atomic uint64 packing head (high 32 bits) and tail (low 32
// bits). One producer pushes at the head: it checks that the slot is free
// (its type word cleared by the last consumer), fills it and publishes it
// by adding one to the head. Consumers pop at the tail by a
// compare-and-swap of the packed word that advances the tail, then read
// the slot and free it with an atomic store of its type word.
//
// Expected, by hand: pushPop is correct and race-free (a slot is filled
// before the Add that publishes it, read after the CAS that claims it, and
// reused only after the consumer's atomic store frees it). popByStore
// claims the slot with a load and a store of the packed word: two
// consumers can claim the same slot, read its value while the other frees
// it (race finding on the slot's value) and pop one value twice (SC
// finding on the panic). The range directives bound the packed word and
// the total the drivers add up.
package pooldequeue

import (
	"sync"
	"sync/atomic"
)

// dequeueBits is 32 in Go; 4 here keeps the packed word within a range
// the exact engines enumerate (the drivers push two values).
const dequeueBits = 4

// eface is a slot: its type word tells whether it is in use.
type eface struct {
	typ atomic.Uint32 // 0 when free
	val any
}

// poolDequeue is a lock-free fixed-size single-producer, multi-consumer
// queue.
type poolDequeue struct {
	headTail atomic.Uint64 //fencecheck:range 0..34 // head and tail stay within 0..2
	vals     []eface
}

func (d *poolDequeue) unpack(ptrs uint64) (head, tail uint32) {
	const mask = 1<<dequeueBits - 1
	head = uint32((ptrs >> dequeueBits) & mask)
	tail = uint32(ptrs & mask)
	return
}

func (d *poolDequeue) pack(head, tail uint32) uint64 {
	const mask = 1<<dequeueBits - 1
	return (uint64(head) << dequeueBits) | uint64(tail&mask)
}

// pushHead adds val at the head of the queue. It returns false if the
// queue is full. It must only be called by a single producer.
func (d *poolDequeue) pushHead(val any) bool {
	ptrs := d.headTail.Load()
	head, tail := d.unpack(ptrs)
	if (tail+uint32(len(d.vals)))&(1<<dequeueBits-1) == head {
		return false // full
	}
	slot := &d.vals[head&uint32(len(d.vals)-1)]
	if slot.typ.Load() != 0 {
		return false // a consumer is still freeing the slot
	}
	slot.val = val
	slot.typ.Store(1)
	d.headTail.Add(1 << dequeueBits)
	return true
}

// popTail removes and returns the element at the tail of the queue. It
// returns false if the queue is empty. Any number of consumers may call it.
func (d *poolDequeue) popTail() (any, bool) {
	var slot *eface
	for {
		ptrs := d.headTail.Load()
		head, tail := d.unpack(ptrs)
		if tail == head {
			return nil, false // empty
		}
		ptrs2 := d.pack(head, tail+1)
		if d.headTail.CompareAndSwap(ptrs, ptrs2) {
			slot = &d.vals[tail&uint32(len(d.vals)-1)]
			break
		}
	}
	val := slot.val
	slot.val = nil
	slot.typ.Store(0)
	return val, true
}

func newDequeue() *poolDequeue {
	return &poolDequeue{vals: make([]eface, 2)}
}

//fencecheck:system
func pushPop() {
	d := newDequeue()
	var got atomic.Int32 //fencecheck:range 0..3
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if v, ok := d.popTail(); ok {
				if n, isInt := v.(int); isInt {
					got.Add(int32(n))
				}
			}
			wg.Done()
		}()
	}
	d.pushHead(1)
	d.pushHead(2)
	wg.Wait()
	for {
		v, ok := d.popTail()
		if !ok {
			break
		}
		got.Add(int32(v.(int)))
	}
	if got.Load() != 3 {
		panic("lost or duplicated a value")
	}
}

// popTailStore claims the tail with a load and a plain store.
func (d *poolDequeue) popTailStore() (any, bool) {
	ptrs := d.headTail.Load()
	head, tail := d.unpack(ptrs)
	if tail == head {
		return nil, false
	}
	d.headTail.Store(d.pack(head, tail+1))
	slot := &d.vals[tail&uint32(len(d.vals)-1)]
	val := slot.val // want `^race: go@\d+#2 loads d\.vals\[0\]\.val here while go@\d+ stores d\.vals\[0\]\.val`
	slot.val = nil
	slot.typ.Store(0)
	return val, true
}

//fencecheck:system
func popByStore() {
	d := newDequeue()
	d.pushHead(1)
	var got atomic.Int32 //fencecheck:range 0..3
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if v, ok := d.popTailStore(); ok && v != nil {
				got.Add(int32(v.(int)))
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if got.Load() != 1 {
		panic("popped twice") // want `^SC: system popByStore is wrong even under sequential consistency`
	}
}
