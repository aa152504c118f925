// Package errorsas holds systems that read a goroutine's error of their
// own type back with errors.As.
package errorsas

import (
	"errors"
	"sync"
)

// opError is an error of the package's own: the operation that failed and
// the attempts it took.
type opError struct {
	op    string
	tries int
}

func (e *opError) Error() string { return e.op + " failed" }

// codeError is another error type, which no goroutine returns.
type codeError struct{ code int }

func (e *codeError) Error() string { return "code" }

// result is where a worker leaves its error, under the lock.
type result struct {
	mu  sync.Mutex
	err error
}

// dial fails for worker 1 with an *opError.
func dial(i int) error {
	if i == 1 {
		return &opError{op: "dial", tries: 3}
	}
	return nil
}

// keep records err under the lock.
func (r *result) keep(err error) {
	r.mu.Lock()
	r.err = err
	r.mu.Unlock()
}

// asOwnType: two workers dial, one fails; main reads the failure back with
// errors.As and finds its tries.
//
//fencecheck:system
func asOwnType() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := dial(i); err != nil {
				r.keep(err)
			}
		}()
	}
	wg.Wait()
	var oe *opError
	if !errors.As(r.err, &oe) || oe.tries != 3 {
		panic("not the dial error")
	}
	var target error
	if !errors.As(r.err, &target) || target != r.err {
		panic("an error is an error")
	}
}

// triesRace: a worker publishes its error under the lock, then counts one
// more try without it, while a reader finds the error with errors.As and
// reads its tries.
//
//fencecheck:system
func triesRace() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		e := &opError{op: "dial"}
		r.keep(e)
		e.tries = 1 // want `^race: go@\d+ stores e\.tries here while go@\d+ loads e\.tries`
	}()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		err := r.err
		r.mu.Unlock()
		var oe *opError
		if errors.As(err, &oe) {
			_ = oe.tries
		}
	}()
	wg.Wait()
}

// wrongType: main expects the failure to be a *codeError, which no worker
// returns: errors.As finds none and main panics.
//
//fencecheck:system
func wrongType() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := dial(i); err != nil {
				r.keep(err)
			}
		}()
	}
	wg.Wait()
	var ce *codeError
	if !errors.As(r.err, &ce) {
		panic("not a code error") // want `^SC: system wrongType is wrong even under sequential consistency`
	}
}

// nilTarget: errors.As with a nil pointer as target panics once a worker
// has failed.
//
//fencecheck:system
func nilTarget() {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := dial(i); err != nil {
				r.keep(err)
			}
		}()
	}
	wg.Wait()
	var oe **opError
	_ = errors.As(r.err, oe) // want `^SC: system nilTarget is wrong even under sequential consistency: the bad state errors: target must be a non-nil pointer`
}
