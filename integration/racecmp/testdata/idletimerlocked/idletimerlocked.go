// Package idletimerlocked has a worker that waits for jobs with an idle
// timeout made for each wait, as worker pools do, and records the last
// job in a field the producer reads once the worker has exited.
//
// Expected: race-free.
package idletimerlocked

import (
	"sync"
	"time"
)

type worker struct {
	last int
}

// system: the producer reads last after Wait.
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
	close(jobs)
	wg.Wait()
	_ = w.last
}
