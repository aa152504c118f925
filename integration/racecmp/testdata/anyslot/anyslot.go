// Package anyslot has a goroutine publish an integer it computes in an
// interface field that the reader reads under a lock the writer does not
// take.
//
// Expected: racy.
package anyslot

import (
	"sync"
	"sync/atomic"
)

type slot struct {
	v any
}

// system: the writer stores without the lock.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var s slot
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.v = int(n.Add(1))
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
