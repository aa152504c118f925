// Package idletimer has a worker that waits for jobs with an idle timeout
// made for each wait, as worker pools do, and records the last job in a
// field the producer reads while the worker may still be writing it.
//
// Expected: racy.
package idletimer

import (
	"sync"
	"time"
)

type worker struct {
	last int
}

// system: the producer reads last after its send, before the worker is
// done with the job.
//
//fencecheck:system
func system() {
	w := &worker{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			idle := time.NewTimer(time.Second)
			select {
			case j, ok := <-jobs:
				idle.Stop()
				if !ok {
					return
				}
				w.last = j
			case <-idle.C:
				return
			}
		}
	}()
	select {
	case jobs <- 1:
	case <-time.After(2 * time.Second):
	}
	_ = w.last
	close(jobs)
	wg.Wait()
}
