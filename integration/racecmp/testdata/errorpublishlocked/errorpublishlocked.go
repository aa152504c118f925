// Package errorpublishlocked has two goroutines make errors with messages
// formatted at run time and store them, with their lengths, under a lock;
// the system function reads them after Wait.
//
// Expected: race-free.
package errorpublishlocked

import (
	"errors"
	"fmt"
	"sync"
)

var errStop = errors.New("stop")

type outcome struct {
	mu  sync.Mutex
	err error
	n   int
}

// job fails with an error of its own.
func job(i int) error {
	return fmt.Errorf("job %d failed", i)
}

// system: both goroutines store their error under the lock.
//
//fencecheck:system
func system() {
	var o outcome
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := job(i); err != nil {
				o.mu.Lock()
				if msg := err.Error(); len(msg) > 0 {
					o.n++
				}
				o.err = err
				o.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if o.err == nil || o.err == errStop {
		panic("lost the error")
	}
}
