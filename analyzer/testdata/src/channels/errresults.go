package channels

import (
	"errors"
	"sync"
)

// Errors handed over on a channel and gathered by workers into one
// errors.Join under a mutex, as batch runners collect their jobs' results
// (an errCh of capacity n, drained by the workers that report). Each
// received error is one a send sent, not any error of the program.

var errJobFailed = errors.New("job failed")

type errSink struct {
	mu  sync.Mutex
	all error
}

func (s *errSink) add(err error) {
	s.mu.Lock()
	s.all = errors.Join(s.all, err)
	s.mu.Unlock()
}

//fencecheck:system
func joinReceivedErrors() {
	errCh := make(chan error, 2)
	errCh <- errJobFailed
	errCh <- nil
	var sink errSink
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sink.add(<-errCh)
		}()
	}
	wg.Wait()
	if !errors.Is(sink.all, errJobFailed) {
		panic("lost the job's error")
	}
}

//fencecheck:system
func joinReceivedErrorsWrong() {
	errCh := make(chan error, 2)
	errCh <- errJobFailed
	errCh <- nil
	var sink errSink
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sink.add(<-errCh)
		}()
	}
	wg.Wait()
	if sink.all != nil {
		panic("a job failed") // want `^SC: system joinReceivedErrorsWrong is wrong even under sequential consistency`
	}
}

// joinMaybeErrors: each worker's error is nil or one it makes, chosen by
// the branch it takes.
//
//fencecheck:system
func joinMaybeErrors() {
	var sink errSink
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i == 3 {
				err = errors.New("never")
			}
			sink.add(err)
		}()
	}
	wg.Wait()
	if sink.all != nil {
		panic("no worker fails")
	}
}

//fencecheck:system
func joinMaybeErrorsWrong() {
	var sink errSink
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i == 1 {
				err = errors.New("second")
			}
			sink.add(err)
		}()
	}
	wg.Wait()
	if sink.all != nil {
		panic("a worker failed") // want `^SC: system joinMaybeErrorsWrong is wrong even under sequential consistency`
	}
}
