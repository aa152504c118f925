package locks

import "sync"

// SeqLock protects a pair of values that one writer updates and readers copy
// without taking a lock: the writer makes the sequence number odd while it
// writes, and a reader retries when the number was odd or changed under it.
// x86 keeps stores in order and loads in order, so plain fields suffice on
// amd64 (other architectures need barriers; the Go memory model asks for
// atomics).
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

// seqLockSystem runs one writer and one reader; the reader must never see a
// torn pair.
//
//fencecheck:system
func seqLockSystem() {
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
