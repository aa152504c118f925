// Package anyslotlocked has a goroutine publish an integer it computes in
// an interface field under the lock the reader takes.
//
// Expected: race-free.
package anyslotlocked

import (
	"sync"
	"sync/atomic"
)

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
		s.v = k
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		if x, ok := s.v.(int); ok && x != 1 {
			panic("not the first")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
