// Package errchanjoinlocked has workers that take their jobs' errors from
// a channel and join them into one error under a mutex, as batch runners
// gather what an errCh of capacity n delivers.
//
// Expected: race-free.
package errchanjoinlocked

import (
	"errors"
	"sync"
)

var errJob = errors.New("job failed")

type sink struct {
	mu  sync.Mutex
	all error
}

func (s *sink) add(err error) {
	s.mu.Lock()
	s.all = errors.Join(s.all, err)
	s.mu.Unlock()
}

// system: two workers, one failed job and one that succeeded.
//
//fencecheck:system
func system() {
	errCh := make(chan error, 2)
	errCh <- errJob
	errCh <- nil
	var s sink
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.add(<-errCh)
		}()
	}
	wg.Wait()
	if !errors.Is(s.all, errJob) {
		panic("lost the job's error")
	}
}
