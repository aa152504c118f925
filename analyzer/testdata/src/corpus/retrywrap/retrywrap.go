// Package retrywrap follows the retry loop of github.com/cenkalti/backoff
// (Retry runs an operation until it succeeds, a permanent error stops it,
// and the last error is returned), with the last error wrapped in the
// number of attempts (fmt.Errorf with %w) as its callers do: each worker
// retries its fetch, whose errors wrap a sentinel, and the caller asks
// errors.Is for the sentinels.
//
// Expected, by hand: fetchAll is correct and race-free: the first worker's
// backend is down for good (every attempt wraps ErrUnavailable), the
// second's fails once and then answers; each worker stores its error in its
// own slot of a slice the caller reads after Wait: the first worker's
// error, in which errors.Is finds ErrUnavailable two levels down and not
// ErrPermanent, and nil. sharedLast keeps the last error in one
// variable both workers write: a race on it (race finding), and the caller
// may see the second worker's nil (SC finding on the panic).
package retrywrap

import (
	"errors"
	"fmt"
	"sync"
)

var (
	ErrUnavailable = errors.New("backend unavailable")
	ErrPermanent   = errors.New("permanent failure")
)

// backend answers after fails failed calls; fails < 0 is down for good.
type backend struct {
	fails int
	calls int
}

func (b *backend) fetch() error {
	b.calls++
	if b.fails < 0 || b.calls <= b.fails {
		return fmt.Errorf("call %d: %w", b.calls, ErrUnavailable)
	}
	return nil
}

// retry runs op up to attempts times; a permanent error stops it.
func retry(attempts int, op func() error) error {
	var err error
	for n := 1; n <= attempts; n++ {
		if err = op(); err == nil {
			return nil
		}
		if errors.Is(err, ErrPermanent) {
			return err
		}
	}
	return fmt.Errorf("after %d attempts: %w", attempts, err)
}

//fencecheck:system
func fetchAll() {
	backends := []*backend{{fails: -1}, {fails: 1}}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			errs[i] = retry(2, backends[i].fetch)
		}()
	}
	wg.Wait()
	if errs[1] != nil || !errors.Is(errs[0], ErrUnavailable) || errors.Is(errs[0], ErrPermanent) {
		panic("lost the cause")
	}
}

//fencecheck:system
func sharedLast() {
	backends := []*backend{{fails: -1}, {fails: 1}}
	var last error
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			last = retry(2, backends[i].fetch) // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores last\) at once, and nothing orders the two \(system sharedLast\)`
		}()
	}
	wg.Wait()
	if !errors.Is(last, ErrUnavailable) {
		panic("lost the cause") // want `^SC: system sharedLast is wrong even under sequential consistency: the panic is reached here`
	}
}
