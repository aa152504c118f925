package channels

import (
	"errors"
	"fmt"
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

// joinThreeWorkers: three workers, one of which fails, gather into the
// sink: the cell's errors are those the workers store there, not every
// error the workers may make.
//
//fencecheck:system
func joinThreeWorkers() {
	var sink errSink
	var wg sync.WaitGroup
	for i := range 3 {
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
	if sink.all == nil {
		panic("lost the second worker's error")
	}
}

//fencecheck:system
func joinThreeWorkersWrong() {
	var sink errSink
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i != 1 {
				err = errJobFailed
			}
			sink.add(err)
		}()
	}
	wg.Wait()
	if errors.Is(sink.all, errJobFailed) {
		panic("two workers failed") // want `^SC: system joinThreeWorkersWrong is wrong even under sequential consistency`
	}
}

// joinTaskResults: the tasks are functions on a channel, and each worker
// joins what the one it took returns: the results are what the tasks'
// functions return.
//
//fencecheck:system
func joinTaskResults() {
	tasks := make(chan func() error, 2)
	tasks <- func() error { return errJobFailed }
	tasks <- func() error { return nil }
	close(tasks)
	var sink errSink
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if t := <-tasks; t != nil {
				sink.add(t())
			}
		}()
	}
	wg.Wait()
	if !errors.Is(sink.all, errJobFailed) {
		panic("lost the task's error")
	}
}

//fencecheck:system
func joinTaskResultsWrong() {
	tasks := make(chan func() error, 2)
	tasks <- func() error { return nil }
	tasks <- func() error { return errJobFailed }
	close(tasks)
	var sink errSink
	var wg sync.WaitGroup
	for range 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if t := <-tasks; t != nil {
				sink.add(t())
			}
		}()
	}
	wg.Wait()
	if !errors.Is(sink.all, errJobFailed) {
		panic("one worker takes the first task, and the failed one is left") // want `^SC: system joinTaskResultsWrong is wrong even under sequential consistency`
	}
}

// joinInLoop: the receiver joins what arrives in a loop, the usual fan-in
// of a batch's errors; each run of the join makes a new error, which the
// model keeps as one for each case.
//
//fencecheck:system
func joinInLoop() {
	errCh := make(chan error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); errCh <- errJobFailed }()
	go func() { defer wg.Done(); errCh <- nil }()
	wg.Wait()
	close(errCh)
	var all error
	for err := range errCh {
		all = errors.Join(all, err)
	}
	if !errors.Is(all, errJobFailed) {
		panic("lost the job's error")
	}
}

var errOther = errors.New("other")

//fencecheck:system
func joinInLoopWrong() {
	errCh := make(chan error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); errCh <- errJobFailed }()
	go func() { defer wg.Done(); errCh <- nil }()
	wg.Wait()
	close(errCh)
	var all error
	for err := range errCh {
		all = errors.Join(all, err)
	}
	if all != nil {
		panic("a job failed") // want `^SC: system joinInLoopWrong is wrong even under sequential consistency`
	}
}

// retryWrapped: a retry loop wraps the error of each try in the next.
//
//fencecheck:system
func retryWrapped() {
	done := make(chan error, 1)
	go func() {
		err := errJobFailed
		for try := range 2 {
			err = fmt.Errorf("try %d: %w", try, err)
		}
		done <- err
	}()
	if err := <-done; !errors.Is(err, errJobFailed) || errors.Is(err, errOther) {
		panic("the retries lost the cause")
	}
}

// sameJoin compares two joins of one loop by identity: Go's are two
// errors, the model's one.
//
//fencecheck:system
func sameJoin() { // want `^inconclusive: system sameJoin: a run reaches comparing errors that errors.Join or fmt.Errorf made in a loop by identity`
	done := make(chan bool, 1)
	go func() {
		var errs [2]error
		for i := range 2 {
			errs[i] = errors.Join(errJobFailed)
		}
		done <- errs[0] == errs[1]
	}()
	if <-done {
		panic("two joins are one error")
	}
}

// setupJoinSent: a join the set-up makes, sent by two goroutines: both
// receive the one error.
//
//fencecheck:system
func setupJoinSent() {
	ch := make(chan error, 2)
	shared := errors.Join(errJobFailed)
	go func() { ch <- shared }()
	go func() { ch <- shared }()
	if a, b := <-ch, <-ch; a != b {
		panic("one error, two values")
	}
}

//fencecheck:system
func setupJoinSentWrong() {
	ch := make(chan error, 2)
	shared := errors.Join(errJobFailed)
	go func() { ch <- shared }()
	go func() { ch <- shared }()
	if a, b := <-ch, <-ch; a == b {
		panic("the same error twice") // want `^SC: system setupJoinSentWrong is wrong even under sequential consistency`
	}
}

// casLoopJoin compares, in a compare-and-swap, two joins of one loop: Go's
// are two errors, the model's one.
//
//fencecheck:system
func casLoopJoin() { // want `^inconclusive: system casLoopJoin: a run reaches comparing errors that errors.Join or fmt.Errorf made in a loop by identity`
	var m sync.Map
	ch := make(chan error, 2)
	go func() {
		for range 2 {
			ch <- errors.Join(errJobFailed)
		}
	}()
	first, second := <-ch, <-ch
	m.Store("k", first)
	if m.CompareAndSwap("k", second, nil) {
		panic("the second join is the first")
	}
}

// joinTwoKinds: two workers range over the errors of a batch, two kinds
// of them, joining each under a mutex: nothing sends nil, so a value a
// range receives is not nil, and the trees the loops build stay few.
//
//fencecheck:system
func joinTwoKinds() {
	errCh := make(chan error, 2)
	errCh <- errJobFailed
	errCh <- errOther
	close(errCh)
	var sink errSink
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for err := range errCh {
				sink.add(err)
			}
		}()
	}
	wg.Wait()
	if !errors.Is(sink.all, errJobFailed) || !errors.Is(sink.all, errOther) {
		panic("lost an error")
	}
}

//fencecheck:system
func joinTwoKindsWrong() {
	errCh := make(chan error, 2)
	errCh <- errJobFailed
	errCh <- errOther
	close(errCh)
	var sink errSink
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err, ok := <-errCh; ok {
			sink.add(err)
		}
	}()
	wg.Wait()
	if !errors.Is(sink.all, errOther) {
		panic("one receive took only the first error") // want `^SC: system joinTwoKindsWrong is wrong even under sequential consistency`
	}
}
