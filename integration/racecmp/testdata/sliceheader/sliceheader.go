// Package sliceheader has two goroutines append to a buffer with room kept
// in a struct field, one of them without the lock: the stores and loads of
// the field's slice header race.
//
// Expected: racy.
package sliceheader

import "sync"

type stream struct {
	mu sync.Mutex
	b  []int
}

// system: the first goroutine appends without taking the lock.
//
//fencecheck:system
func system() {
	s := &stream{b: make([]int, 0, 8)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.b = append(s.b, 1)
		wg.Done()
	}()
	go func() {
		s.mu.Lock()
		s.b = append(s.b, 2)
		s.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
