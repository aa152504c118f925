// Package afterfuncgo arms a time.AfterFunc from a goroutine, as a
// batcher arms the flush of a window it opens: the goroutine and the
// function both count under the lock.
//
// Expected: race-free.
package afterfuncgo

import (
	"sync"
	"time"
)

// system: the goroutine arms the timer and counts, both under the lock;
// the function counts under it too.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var timer *time.Timer
	n := 0
	done := make(chan struct{})
	go func() {
		mu.Lock()
		timer = time.AfterFunc(time.Microsecond, func() {
			mu.Lock()
			n++
			mu.Unlock()
			close(done)
		})
		n++
		mu.Unlock()
	}()
	<-done
	mu.Lock()
	_ = timer
	_ = n
	mu.Unlock()
}
