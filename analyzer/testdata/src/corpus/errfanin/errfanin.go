// Package errfanin follows AggregateGoroutines of
// k8s.io/apimachinery/pkg/util/errors: each function runs in a goroutine
// of its own and sends its error on a channel of capacity len(funcs); the
// caller receives exactly that many and gathers the errors that are not
// nil. errors.Join, in the receiving loop, stands for the aggregate the
// original builds from a slice.
//
// Expected, by hand: aggregate is correct and race-free: one of the two
// checks fails with ErrNotReady, and the aggregate holds it. The mutant
// aggregateOneShort calls aggregateOne, which receives one error fewer
// than it started functions (the loop's bound is off by one): the failing
// check's error may be the one left on the channel (the SC finding on the
// panic).
package errfanin

import "errors"

// ErrNotReady is the error of a check that is not ready.
var ErrNotReady = errors.New("not ready")

// AggregateGoroutines runs funcs in parallel and gathers their errors.
func AggregateGoroutines(funcs ...func() error) error {
	errChan := make(chan error, len(funcs))
	for _, f := range funcs {
		go func(f func() error) { errChan <- f() }(f)
	}
	var all error
	for i := 0; i < cap(errChan); i++ {
		if err := <-errChan; err != nil {
			all = errors.Join(all, err)
		}
	}
	return all
}

// aggregateOne receives one error fewer than it started functions.
func aggregateOne(funcs ...func() error) error {
	errChan := make(chan error, len(funcs))
	for _, f := range funcs {
		go func(f func() error) { errChan <- f() }(f)
	}
	var all error
	for i := 0; i < cap(errChan)-1; i++ {
		if err := <-errChan; err != nil {
			all = errors.Join(all, err)
		}
	}
	return all
}

func ready() error    { return nil }
func notReady() error { return ErrNotReady }

//fencecheck:system
func aggregate() {
	if err := AggregateGoroutines(ready, notReady); !errors.Is(err, ErrNotReady) {
		panic("lost the failed check")
	}
}

//fencecheck:system
func aggregateOneShort() {
	if err := aggregateOne(ready, notReady); !errors.Is(err, ErrNotReady) {
		panic("lost the failed check") // want `^SC: system aggregateOneShort is wrong even under sequential consistency`
	}
}
