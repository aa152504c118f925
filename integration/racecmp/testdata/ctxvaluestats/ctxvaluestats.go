// Package ctxvaluestats has request handlers that find the request's
// stats in its context (context.WithValue, as middleware attaches them)
// and count into them without a lock.
//
// Expected: racy.
package ctxvaluestats

import (
	"context"
	"sync"
)

type statsKey struct{}

type stats struct{ calls int }

func handle(ctx context.Context) {
	if st, ok := ctx.Value(statsKey{}).(*stats); ok {
		st.calls++
	}
}

// system: two handlers of one request.
//
//fencecheck:system
func system() {
	ctx := context.WithValue(context.Background(), statsKey{}, &stats{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handle(ctx)
		}()
	}
	wg.Wait()
}
