// Package bitops checks the bitwise operators in lock-free code: the
// odd/even test of a seqlock's sequence count (seq&1) and the index mask of a
// power-of-two ring buffer (i&mask). Correct systems are silent; a reader
// that tests the wrong bit of the count reads a torn pair.
package bitops

import (
	"sync"
	"sync/atomic"
)

// seqlock protects a pair of values with a sequence count: odd while the
// writer is inside.
type seqlock struct {
	seq  atomic.Uint32
	a, b atomic.Uint32
}

// atomicSeqlock is correct: nothing is reported.
//
//fencecheck:system
func atomicSeqlock() {
	var s seqlock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.seq.Add(1)
		s.a.Store(1)
		s.b.Store(1)
		s.seq.Add(1)
		wg.Done()
	}()
	go func() {
		for {
			v := s.seq.Load()
			if v&1 == 1 {
				continue
			}
			a, b := s.a.Load(), s.b.Load()
			if s.seq.Load() == v {
				if a != b {
					panic("torn read")
				}
				break
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// plainSeq is a seqlock on plain fields, which x86-TSO keeps in order.
type plainSeq struct {
	seq  uint32 //fencecheck:range 0..2
	a, b uint32
}

// plainSeqlock is correct under x86-TSO: nothing is reported.
//
//fencecheck:system
func plainSeqlock() {
	var s plainSeq
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.seq++
		s.a = 1
		s.b = 1
		s.seq++
		wg.Done()
	}()
	go func() {
		for {
			v := s.seq
			if v&1 == 1 {
				continue
			}
			a, b := s.a, s.b
			if s.seq == v {
				if a != b {
					panic("torn read")
				}
				break
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// brokenSeqlock's reader tests bit 1 instead of bit 0: it reads while the
// count is 1, in the middle of the write.
//
//fencecheck:system
func brokenSeqlock() {
	var s seqlock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.seq.Add(1)
		s.a.Store(1)
		s.b.Store(1)
		s.seq.Add(1)
		wg.Done()
	}()
	go func() {
		for {
			// Once the writer is done, seq stays 2 and this never ends; a
			// hang is a bad state, found before the torn read.
			v := s.seq.Load() // want `^deadlock: go@\d+ and main block forever in s\.seq\.Load\(\) and wg\.Wait\(\) \(system brokenSeqlock\)$`
			if v&2 == 2 {
				continue
			}
			a, b := s.a.Load(), s.b.Load()
			if s.seq.Load() == v {
				if a != b {
					panic("torn read")
				}
				break
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// ring is a single-producer single-consumer queue of four cells indexed by
// a free-running count masked with len(buf)-1. Two values go through it, so
// the counts stay within 0..2.
type ring struct {
	buf        [4]atomic.Int32
	head, tail atomic.Uint32 //fencecheck:range 0..2
}

// ringBuffer is correct: the consumer sees every value the producer pushed,
// in order.
//
//fencecheck:system
func ringBuffer() {
	var r ring
	const mask = uint32(len(r.buf) - 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := range uint32(2) {
			t := r.tail.Load()
			r.buf[t&mask].Store(int32(i) + 1)
			r.tail.Store(t + 1)
		}
		wg.Done()
	}()
	go func() {
		for n := 0; n < 2; {
			h := r.head.Load()
			if h == r.tail.Load() {
				continue
			}
			if r.buf[h&mask].Load() != int32(h)+1 {
				panic("lost value")
			}
			r.head.Store(h + 1)
			n++
		}
		wg.Done()
	}()
	wg.Wait()
}

// atomicFlags is correct: atomic Or never loses a bit.
//
//fencecheck:system
func atomicFlags() {
	var flags atomic.Uint32
	var wg sync.WaitGroup
	wg.Add(2)
	for bit := range uint32(2) {
		go func() {
			flags.Or(1 << bit)
			wg.Done()
		}()
	}
	wg.Wait()
	if flags.And(^uint32(2)) != 3 || flags.Load() != 1 {
		panic("lost bit")
	}
}

// plainFlags sets its bits with plain read-modify-writes, which lose one.
//
//fencecheck:system
func plainFlags() {
	var flags uint32
	var wg sync.WaitGroup
	wg.Add(2)
	for bit := range uint32(2) {
		go func() {
			flags |= 1 << bit
			wg.Done()
		}()
	}
	wg.Wait()
	if flags != 3 {
		panic("lost bit") // want `^SC: system plainFlags is wrong even under sequential consistency: the panic is reached here`
	}
}
