// Package anyfloat has a goroutine publish a ratio it computes in an
// interface field without the lock the reader takes to assert the float
// back.
//
// Expected: racy.
package anyfloat

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
		k := n.Add(1)
		s.v = float64(k) / 4
		wg.Done()
	}()
	go func() {
		mu.Lock()
		if f, ok := s.v.(float64); ok && f != 0.25 {
			panic("wrong ratio")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
