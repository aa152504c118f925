// Package errorpublish has two goroutines make errors with messages
// formatted at run time and store them, with their lengths, in fields the
// other goroutine stores too, without a lock.
//
// Expected: racy.
package errorpublish

import (
	"fmt"
	"sync"
)

type outcome struct {
	err error
	n   int
}

// job fails with an error of its own.
func job(i int) error {
	return fmt.Errorf("job %d failed", i)
}

// system: both goroutines store their error.
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
				if msg := err.Error(); len(msg) > 0 {
					o.n++
				}
				o.err = err
			}
		}()
	}
	wg.Wait()
}
