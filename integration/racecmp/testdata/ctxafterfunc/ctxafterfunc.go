// Package ctxafterfunc registers a function with context.AfterFunc and
// cancels the context after a write: the cancel happens before the
// function starts, and the function's close before the final read.
//
// Expected: race-free.
package ctxafterfunc

import "context"

// system: the goroutine writes n, then cancels; the function writes n.
//
//fencecheck:system
func system() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := 0
	context.AfterFunc(ctx, func() {
		n++
		close(done)
	})
	go func() {
		n++
		cancel()
	}()
	<-done
	_ = n
}
