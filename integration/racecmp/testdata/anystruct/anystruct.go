// Package anystruct has a goroutine publish a struct value it computes in
// an interface field that the reader reads, and asserts back, under a lock
// the writer does not take.
//
// Expected: racy.
package anystruct

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
		k := int(n.Add(1))
		s.v = job{id: k, weight: 2 * k}
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
