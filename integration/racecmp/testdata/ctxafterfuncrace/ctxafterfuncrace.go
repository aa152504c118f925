// Package ctxafterfuncrace registers a function with context.AfterFunc,
// and the goroutine that cancels the context writes after the cancel:
// nothing orders that write with the function's.
//
// Expected: racy.
package ctxafterfuncrace

import (
	"context"
	"sync"
)

// system: the goroutine cancels, then writes n; the function writes n.
//
//fencecheck:system
func system() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	n := 0
	context.AfterFunc(ctx, func() {
		n++
		wg.Done()
	})
	go func() {
		cancel()
		n++
		wg.Done()
	}()
	wg.Wait()
}
