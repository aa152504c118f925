// Package anyslicelocked has a goroutine fill a buffer and then publish it
// in an interface field under the lock the reader takes to assert the
// slice back; the reader reads the elements after.
//
// Expected: race-free.
package anyslicelocked

import "sync"

type slot struct {
	v any
}

// system: the elements are written before the slice is published.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var s slot
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		buf[0], buf[1] = 1, 2
		mu.Lock()
		s.v = buf
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		b, ok := s.v.([]int)
		mu.Unlock()
		if ok && b[0] > b[1] {
			panic("unordered buffer")
		}
		wg.Done()
	}()
	wg.Wait()
}
