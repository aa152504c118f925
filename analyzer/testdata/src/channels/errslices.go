package channels

import (
	"errors"
	"sync"
)

// Errors gathered into a slice and joined once the workers are done, as
// hashicorp/go-multierror's Group and Kubernetes' AggregateGoroutines
// collect them: errors.Join(errs...) joins what the slice holds when the
// call runs, in order, and drops the nil ones.

var errShardDown = errors.New("shard down")

// shardError is an error of the program's own type, held by pointer.
type shardError struct{ shard int }

func (e *shardError) Error() string { return "shard failed" }

//fencecheck:system
func joinSliceUnderMutex() {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				mu.Lock()
				errs = append(errs, errShardDown)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if !errors.Is(errors.Join(errs...), errShardDown) {
		panic("lost the shard's error")
	}
}

//fencecheck:system
func joinSliceUnderMutexWrong() {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				mu.Lock()
				errs = append(errs, errShardDown)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if errors.Join(errs...) != nil {
		panic("a shard failed") // want `^SC: system joinSliceUnderMutexWrong is wrong even under sequential consistency`
	}
}

// joinSliceByIndex: each worker writes its own element; errors.As finds
// the first error of the join, the lowest shard's that failed.
//
//fencecheck:system
func joinSliceByIndex() {
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				errs[i] = &shardError{i}
			}
		}()
	}
	wg.Wait()
	var se *shardError
	if !errors.As(errors.Join(errs...), &se) || se.shard != 1 {
		panic("not the first failed shard")
	}
}

//fencecheck:system
func joinSliceByIndexWrong() {
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				errs[i] = &shardError{i}
			}
		}()
	}
	wg.Wait()
	var se *shardError
	if !errors.As(errors.Join(errs...), &se) || se.shard != 2 {
		panic("the last shard is not first") // want `^SC: system joinSliceByIndexWrong is wrong even under sequential consistency`
	}
}

// joinSliceEarly reads the slice before waiting for the workers.
//
//fencecheck:system
func joinSliceEarly() {
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = &shardError{i} // want `^race: `
		}()
	}
	_ = errors.Join(errs...)
	wg.Wait()
}

// joinKeepsOrder: an error received joined before one made here comes
// first, whatever the order the lowering learns them in.
//
//fencecheck:system
func joinKeepsOrder() {
	ch := make(chan error, 1)
	go func() { ch <- &shardError{1} }()
	err := errors.Join(<-ch, &shardError{2})
	var se *shardError
	if !errors.As(err, &se) || se.shard != 1 {
		panic("the received error is first")
	}
}

//fencecheck:system
func joinKeepsOrderWrong() {
	ch := make(chan error, 1)
	go func() { ch <- &shardError{1} }()
	err := errors.Join(&shardError{2}, <-ch)
	var se *shardError
	if !errors.As(err, &se) || se.shard != 1 {
		panic("the received error is second") // want `^SC: system joinKeepsOrderWrong is wrong even under sequential consistency`
	}
}

//fencecheck:system
func joinTooLongSlice() { // want `^inconclusive: system joinTooLongSlice: a run reaches errors\.Join of a slice of more than 16 errors`
	errs := make([]error, 17)
	done := make(chan bool)
	go func() {
		errs[16] = errShardDown
		done <- true
	}()
	<-done
	_ = errors.Join(errs...)
}

// joinedOwnErrorMessage: Go's Error of a join calls the Error of each
// error it holds, here one that reads a field a goroutine writes; the
// model does not run it there, and says so rather than stay silent.
//
//fencecheck:system
func joinedOwnErrorMessage() { // want `^inconclusive: system joinedOwnErrorMessage: a run reaches the message of an error that joins or wraps one of type \*channels\.countedError`
	ce := &countedError{}
	err := errors.Join(errShardDown, ce)
	done := make(chan bool)
	go func() {
		ce.n = 1
		done <- true
	}()
	_ = err.Error()
	<-done
}

type countedError struct{ n int }

func (e *countedError) Error() string {
	if e.n > 0 {
		return "counted"
	}
	return "none"
}

// joinSliceTwoAppenders: both workers append under the mutex, so the
// slice's array may have grown twice; each element moved by the growth
// is what was appended, not any error of the program.
//
//fencecheck:system
func joinSliceTwoAppenders() {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			errs = append(errs, &shardError{i})
			mu.Unlock()
		}()
	}
	wg.Wait()
	err := errors.Join(errs[1:]...)
	var se *shardError
	if !errors.As(err, &se) || errors.Is(err, errShardDown) {
		panic("the second append is the join")
	}
}

//fencecheck:system
func joinSliceTwoAppendersWrong() {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			errs = append(errs, &shardError{i})
			mu.Unlock()
		}()
	}
	wg.Wait()
	var se *shardError
	if errors.As(errors.Join(errs[1:]...), &se) && se.shard == 0 {
		panic("the first worker appended second") // want `^SC: system joinSliceTwoAppendersWrong is wrong even under sequential consistency`
	}
}

func joinShardDown() error { return errors.Join(errShardDown) }

// joinHelperTwice: a goroutine calls a helper that joins twice; each call
// makes an error of its own (was refused: its tree, made afresh in each
// round, was taken for one that changed between rounds).
//
//fencecheck:system
func joinHelperTwice() {
	same := make(chan bool)
	go func() {
		a, b := joinShardDown(), joinShardDown()
		same <- a == b
	}()
	if <-same {
		panic("two joins are one error")
	}
}

//fencecheck:system
func joinHelperTwiceWrong() {
	same := make(chan bool)
	go func() {
		a, b := joinShardDown(), joinShardDown()
		same <- a == b
	}()
	if !<-same {
		panic("two joins are two errors") // want `^SC: system joinHelperTwiceWrong is wrong even under sequential consistency`
	}
}
