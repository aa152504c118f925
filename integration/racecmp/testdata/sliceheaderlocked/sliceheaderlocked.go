// Package sliceheaderlocked has two goroutines append to a buffer with
// room kept in a struct field, both under the lock.
//
// Expected: race-free.
package sliceheaderlocked

import "sync"

type stream struct {
	mu sync.Mutex
	b  []int
}

// system: every append to the field holds the lock.
//
//fencecheck:system
func system() {
	s := &stream{b: make([]int, 0, 8)}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			s.mu.Lock()
			s.b = append(s.b, i)
			s.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if len(s.b) != 2 {
		panic("lost an append")
	}
}
