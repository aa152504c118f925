// Package errslicejoinwaited has workers that append their errors to a
// slice under a mutex, joined with errors.Join(errs...) once they are
// waited for, as hashicorp/go-multierror's Group gathers them.
//
// Expected: race-free.
package errslicejoinwaited

import (
	"errors"
	"sync"
)

type shardError struct{ shard int }

func (e *shardError) Error() string { return "shard failed" }

// system: three workers, two fail.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				mu.Lock()
				errs = append(errs, &shardError{i})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var se *shardError
	if !errors.As(errors.Join(errs...), &se) || se.shard == 0 {
		panic("lost a failed shard")
	}
}
