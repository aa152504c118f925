// Package poolreuse puts a buffer into a sync.Pool while still writing it,
// so another goroutine's Get may hand out the same buffer (a bug pattern
// seen with pooled byte buffers).
//
// Expected: racy.
package poolreuse

import "sync"

type buffer struct{ n int32 }

// system: Put, then write; the other goroutine Gets and writes.
//
//fencecheck:system
func system() {
	pool := &sync.Pool{New: func() any { return &buffer{} }}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b := pool.Get().(*buffer)
		pool.Put(b)
		b.n = 1
		wg.Done()
	}()
	go func() {
		b := pool.Get().(*buffer)
		b.n = 2
		wg.Done()
	}()
	wg.Wait()
}
