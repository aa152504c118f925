// Package loopjoin has a collector that joins the errors its
// workers send into one error, in a loop over the channel, and a caller
// that reads the result without waiting for the collector.
//
// Expected: racy.
package loopjoin

import (
	"errors"
	"sync"
)

var errJob = errors.New("job failed")

// system: two workers, one failing.
//
//fencecheck:system
func system() {
	errCh := make(chan error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); errCh <- errJob }()
	go func() { defer wg.Done(); errCh <- nil }()
	var all error
	done := make(chan struct{})
	go func() {
		defer close(done)
		for err := range errCh {
			all = errors.Join(all, err)
		}
	}()
	wg.Wait()
	close(errCh)
	_ = errors.Is(all, errJob)
	<-done
}
