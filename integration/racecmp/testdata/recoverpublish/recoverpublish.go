// Package recoverpublish publishes a result from a goroutine that recovers
// its own panic, the way errgroup-like helpers turn a panic into an error,
// and the waiter reads the error field with no synchronisation.
//
// Expected: racy.
package recoverpublish

import "sync/atomic"

type result struct {
	failed bool
	done   atomic.Bool
}

func work(r *result, n int) {
	defer func() {
		if recover() != nil {
			r.failed = true
		}
	}()
	if n > 0 {
		panic("boom")
	}
}

// system: the worker sets failed in its deferred recover; main reads it
// without waiting for done.
//
//fencecheck:system
func system() {
	r := &result{}
	go func() {
		work(r, 1)
		r.done.Store(true)
	}()
	_ = r.failed
}
