// Package seqlock is a sequence lock on plain fields (examples/locks): one
// writer, one reader that retries until it copies a consistent pair.
//
// Expected: racy.
package seqlock

import "sync"

// SeqLock protects a pair of values.
type SeqLock struct {
	seq  int32 //fencecheck:range 0..2
	a, b int32
}

// Write stores the pair (v, v).
func (s *SeqLock) Write(v int32) {
	s.seq++
	s.a = v
	s.b = v
	s.seq++
}

// Read returns a consistent copy of the pair.
func (s *SeqLock) Read() (int32, int32) {
	for {
		start := s.seq
		if start%2 == 1 {
			continue
		}
		a, b := s.a, s.b
		if s.seq == start {
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
