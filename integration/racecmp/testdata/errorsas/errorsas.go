// Package errorsas has a worker publish an error of its own type under a
// lock and then count one more try without it, while a reader finds the
// error with errors.As and reads its tries: the count races.
//
// Expected: racy.
package errorsas

import (
	"errors"
	"sync"
)

type opError struct {
	op    string
	tries int
}

func (e *opError) Error() string { return e.op + " failed" }

type result struct {
	mu  sync.Mutex
	err error
}

// system: the worker writes tries after publishing the error.
//
//fencecheck:system
func system() {
	var r result
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		e := &opError{op: "dial"}
		r.mu.Lock()
		r.err = e
		r.mu.Unlock()
		e.tries++
	}()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		err := r.err
		r.mu.Unlock()
		var oe *opError
		if errors.As(err, &oe) && oe.tries > 5 {
			panic("too many tries")
		}
	}()
	wg.Wait()
}
