// Package seqlock follows the Linux kernel's seqlock_t as Go code writes it
// (a sequence counter whose writers serialise on a lock, readers that
// retry): writers take a sync.Mutex, make the sequence odd, store, and make
// it even; readers spin while it is odd (`seq&1 != 0`) and retry when it
// changed.
//
// Expected, by hand: twoWriters is correct (the mutex keeps the writers
// apart, so the sequence is odd exactly while one of them is inside, and a
// reader that saw the same even value on both sides of its loads saw one
// writer's pair). unlockedWriters drops the mutex: the second writer's
// increment makes the sequence even while the first one is between its
// stores, so a reader can take a torn pair with an unchanged even sequence
// (SC finding on the reader's panic).
package seqlock

import (
	"sync"
	"sync/atomic"
)

// SeqLock guards a pair of values.
type SeqLock struct {
	mu   sync.Mutex
	seq  atomic.Uint32
	a, b atomic.Int32
}

func (s *SeqLock) Write(a, b int32) {
	s.mu.Lock()
	s.seq.Add(1)
	s.a.Store(a)
	s.b.Store(b)
	s.seq.Add(1)
	s.mu.Unlock()
}

func (s *SeqLock) Read() (a, b int32) {
	for {
		seq := s.seq.Load()
		if seq&1 != 0 {
			continue
		}
		a, b = s.a.Load(), s.b.Load()
		if s.seq.Load() == seq {
			return a, b
		}
	}
}

//fencecheck:system
func twoWriters() {
	var s SeqLock
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		s.Write(1, 1)
		wg.Done()
	}()
	go func() {
		s.Write(2, 2)
		wg.Done()
	}()
	go func() {
		if a, b := s.Read(); a != b {
			panic("torn read")
		}
		wg.Done()
	}()
	wg.Wait()
}

// writeUnlocked is Write without the writers' lock.
func (s *SeqLock) writeUnlocked(a, b int32) {
	s.seq.Add(1)
	s.a.Store(a)
	s.b.Store(b)
	s.seq.Add(1)
}

//fencecheck:system
func unlockedWriters() {
	var s SeqLock
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		s.writeUnlocked(1, 1)
		wg.Done()
	}()
	go func() {
		s.writeUnlocked(2, 2)
		wg.Done()
	}()
	go func() {
		if a, b := s.Read(); a != b {
			panic("torn read") // want `^SC: system unlockedWriters is wrong even under sequential consistency: `
		}
		wg.Done()
	}()
	wg.Wait()
}
