// Package anyslice has a goroutine publish a buffer in an interface field
// under a lock and fill it afterwards, while the reader asserts the slice
// back under the lock and reads its elements.
//
// Expected: racy.
package anyslice

import "sync"

type slot struct {
	v any
}

// system: the elements are written after the slice is published.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var s slot
	buf := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		s.v = buf
		mu.Unlock()
		buf[0], buf[1] = 1, 2
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
