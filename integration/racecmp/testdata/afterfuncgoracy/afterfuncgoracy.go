// Package afterfuncgoracy is afterfuncgo with the goroutine's count
// after the unlock: it and the function's count are unordered.
//
// Expected: racy.
package afterfuncgoracy

import (
	"sync"
	"time"
)

// system: the goroutine counts after arming the timer, without the lock.
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
		mu.Unlock()
		n++
	}()
	<-done
	mu.Lock()
	_ = timer
	mu.Unlock()
}
