// Package seqlockatomic is the sequence lock with atomic fields
// (examples/locks).
//
// Expected: race-free.
package seqlockatomic

import (
	"sync"
	"sync/atomic"
)

// SeqLock protects a pair of atomic values.
type SeqLock struct {
	seq  atomic.Int32 //fencecheck:range 0..2
	a, b atomic.Int32
}

// Write stores the pair (v, v).
func (s *SeqLock) Write(v int32) {
	s.seq.Add(1)
	s.a.Store(v)
	s.b.Store(v)
	s.seq.Add(1)
}

// Read returns a consistent copy of the pair.
func (s *SeqLock) Read() (int32, int32) {
	for {
		start := s.seq.Load()
		if start%2 == 1 {
			continue
		}
		a, b := s.a.Load(), s.b.Load()
		if s.seq.Load() == start {
			return a, b
		}
	}
}

// system runs one writer and one reader.
//
//fencecheck:system
func system() {
	var s SeqLock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.Write(1)
		wg.Done()
	}()
	go func() {
		a, b := s.Read()
		if a != b {
			panic("seqlock: torn read")
		}
		wg.Done()
	}()
	wg.Wait()
}
