// Package goints checks that integers behave as Go defines them: arithmetic
// wraps in the width of its type, conversions truncate, a division by zero
// panics, and a value outside a //fencecheck:range is a range: finding. A
// domain fencecheck infers for itself is never a verdict.
package goints

import (
	"math"
	"sync"
	"sync/atomic"
)

type cell struct {
	seq atomic.Uint64 //fencecheck:range 0..3
	val int32
}

// ring is a bounded multi-producer multi-consumer queue after Vyukov, with
// two cells: seq - (pos + 1) wraps below zero (to 2^64-1) when a consumer
// finds the cell not yet filled, and int64 of it is then negative.
type ring struct {
	buf        [2]cell
	head, tail atomic.Uint64 //fencecheck:range 0..2
}

func (r *ring) init() {
	for i := range r.buf {
		r.buf[i].seq.Store(uint64(i))
	}
}

func (r *ring) push(v int32) bool {
	for {
		pos := r.tail.Load()
		c := &r.buf[pos&1]
		seq := c.seq.Load()
		dif := seq - pos
		if dif == 0 {
			if r.tail.CompareAndSwap(pos, pos+1) {
				c.val = v
				c.seq.Store(pos + 1)
				return true
			}
		} else if int64(dif) < 0 {
			return false
		}
	}
}

func (r *ring) pop() (int32, bool) {
	for {
		pos := r.head.Load()
		c := &r.buf[pos%2]
		seq := c.seq.Load()
		dif := seq - (pos + 1)
		if dif == 0 {
			if r.head.CompareAndSwap(pos, pos+1) {
				v := c.val
				c.seq.Store(pos + 2)
				return v, true
			}
		} else if int64(dif) < 0 {
			return 0, false
		}
	}
}

// mpmcRing is correct: nothing is reported.
//
//fencecheck:system
func mpmcRing() {
	var r ring
	r.init()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.push(1)
		wg.Done()
	}()
	go func() {
		if v, ok := r.pop(); ok && v != 1 {
			panic("mpmc: wrong value")
		}
		wg.Done()
	}()
	wg.Wait()
}

type counters struct {
	b uint8
	i int8
	w uint64
	x int32
	d int32
}

// byteWraps adds 100 three times to a uint8: 300 wraps to 44, as in Go.
//
//fencecheck:system
func byteWraps() {
	var c counters
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for range 3 {
			c.b += 100
		}
		wg.Done()
	}()
	wg.Wait()
	if c.b != 44 {
		panic("300 is 44 in a uint8")
	}
}

// int8Wraps adds 10 to an int8 120: it wraps to -126, so the panic is
// reached in Go and in the model.
//
//fencecheck:system
func int8Wraps() {
	var c counters
	c.i = 120
	go func() {
		c.i += 10
		if c.i < 0 {
			panic("int8 wrapped") // want `^SC: system int8Wraps is wrong even under sequential consistency: the panic is reached here`
		}
	}()
}

// uint64Underflow decrements a uint64 0: it is 2^64-1, above 5.
//
//fencecheck:system
func uint64Underflow() {
	var c counters
	go func() {
		c.w--
		if c.w > 5 {
			panic("0 - 1 is 2^64-1") // want `^SC: system uint64Underflow is wrong even under sequential consistency: the panic is reached here`
		}
	}()
}

// truncates converts a run-time 300 to uint8 (44) and to int8 (44), and
// 200 to int8 (-56): nothing is reported.
//
//fencecheck:system
func truncates() {
	var c counters
	c.x = 300
	go func() {
		x := c.x
		if uint8(x) != 44 || int8(x) != 44 || int8(x-100) != -56 {
			panic("a conversion does not truncate")
		}
	}()
}

// divideByZero divides by a run-time zero: Go panics.
//
//fencecheck:system
func divideByZero() {
	var c counters
	go func() {
		if 10/c.d == 1 { // want `^SC: system divideByZero is wrong even under sequential consistency: the bad state integer divide by zero is reached here`
			return
		}
	}()
}

type bounded struct {
	n atomic.Int32 //fencecheck:range 0..1
}

// outOfRange increments n twice, past its //fencecheck:range: a range:
// finding, not an SC one.
//
//fencecheck:system
func outOfRange() {
	var b bounded
	for range 2 {
		go func() {
			b.n.Add(1) // want `^range: system outOfRange is wrong even under sequential consistency: b\.n takes the value 2 here, outside its //fencecheck:range 0\.\.1`
		}()
	}
}

// nearMaxInt64 counts up from 3 below the end of int64 in an endless loop:
// no finite domain, so the predicate engine takes it. Its integers are
// unbounded, Go's wrap on the fourth increment, and the panic is then
// reached: the answer is inconclusive, naming the increment, not a proof.
//
//fencecheck:system
func nearMaxInt64() { // want `^inconclusive: system nearMaxInt64: the pred engine stopped after .*: the predicate engine computes with unbounded integers, which are Go's 64-bit integers only until a value wraps around, and x \+ 1 \(go@\d+, goints\.go:\d+:\d+\) may wrap around within the first 3 operations of a run\.`
	var x atomic.Int64
	x.Store(math.MaxInt64 - 3)
	go func() {
		for {
			x.Add(1)
		}
	}()
	go func() {
		if x.Load() < 0 {
			panic("x wrapped")
		}
	}()
}
