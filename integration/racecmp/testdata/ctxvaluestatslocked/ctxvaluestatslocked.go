// Package ctxvaluestatslocked has request handlers that find the
// request's stats in its context (context.WithValue, as middleware
// attaches them) and count into them under the stats' mutex.
//
// Expected: race-free.
package ctxvaluestatslocked

import (
	"context"
	"sync"
)

type statsKey struct{}

type stats struct {
	mu    sync.Mutex
	calls int
}

func handle(ctx context.Context) {
	if st, ok := ctx.Value(statsKey{}).(*stats); ok {
		st.mu.Lock()
		st.calls++
		st.mu.Unlock()
	}
}

// system: two handlers of one request, then the count.
//
//fencecheck:system
func system() {
	st := &stats{}
	ctx := context.WithValue(context.Background(), statsKey{}, st)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handle(ctx)
		}()
	}
	wg.Wait()
	if st.calls != 2 {
		panic("a call was not counted")
	}
}
