// Package errslicejoin has workers that each put their error in their own
// element of a slice, joined with errors.Join(errs...) before the workers
// are waited for, as a fan-out that returns early would.
//
// Expected: racy.
package errslicejoin

import (
	"errors"
	"sync"
)

type shardError struct{ shard int }

func (e *shardError) Error() string { return "shard failed" }

// system: two workers, the second fails.
//
//fencecheck:system
func system() {
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				errs[i] = &shardError{i}
			}
		}()
	}
	err := errors.Join(errs...)
	wg.Wait()
	var se *shardError
	if errors.As(err, &se) && se.shard != 1 {
		panic("not the failed shard")
	}
}
