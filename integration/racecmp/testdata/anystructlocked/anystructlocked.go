// Package anystructlocked has a goroutine publish a struct value it
// computes in an interface field under the lock the reader takes to
// assert it back.
//
// Expected: race-free.
package anystructlocked

import (
	"sync"
	"sync/atomic"
)

type job struct {
	id, weight int
}

type slot struct {
	v any
}

// system: both sides hold the lock.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var s slot
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		k := int(n.Add(1))
		mu.Lock()
		s.v = job{id: k, weight: 2 * k}
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		if j, ok := s.v.(job); ok && j.weight != 2*j.id {
			panic("torn job")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
