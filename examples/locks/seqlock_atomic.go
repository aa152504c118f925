package locks

import (
	"sync"
	"sync/atomic"
)

// AtomicSeqLock is the seqlock the Go memory model allows: the sequence
// number and the protected values are atomics, so the compiler can neither
// drop the writer's first increment nor merge the reader's two loads of the
// sequence number, and no architecture reorders the accesses.
type AtomicSeqLock struct {
	seq  atomic.Int32 //fencecheck:range 0..2
	a, b atomic.Int32
}

// Write stores the pair (v, v).
func (s *AtomicSeqLock) Write(v int32) {
	s.seq.Add(1)
	s.a.Store(v)
	s.b.Store(v)
	s.seq.Add(1)
}

// Read returns a consistent copy of the pair.
func (s *AtomicSeqLock) Read() (int32, int32) {
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

// atomicSeqLockSystem runs one writer and one reader.
//
//fencecheck:system
func atomicSeqLockSystem() {
	var s AtomicSeqLock
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
