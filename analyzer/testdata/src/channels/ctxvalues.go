package channels

import (
	"context"
	"sync"
)

// Request-scoped values carried by a context, as net/http's handlers and
// gRPC interceptors pass a request ID or a logger down to the goroutines
// that serve a request: context.WithValue keeps its parent's cancellation
// and adds a key and a value; ctx.Value finds the innermost one.

type requestIDKey struct{}
type tenantKey struct{}

type requestServer struct {
	ctx    context.Context
	mu     sync.Mutex
	served int
}

func (s *requestServer) serve() {
	if id, ok := s.ctx.Value(requestIDKey{}).(int); ok {
		s.mu.Lock()
		s.served += id
		s.mu.Unlock()
	}
}

//fencecheck:system
func ctxValueInField() {
	s := &requestServer{ctx: context.WithValue(context.Background(), requestIDKey{}, 2)}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serve()
		}()
	}
	wg.Wait()
	if s.served != 4 {
		panic("a request lost its ID")
	}
}

//fencecheck:system
func ctxValueMissingWrong() {
	ctx := context.WithValue(context.Background(), requestIDKey{}, 1)
	found := make(chan bool)
	go func() { found <- ctx.Value(tenantKey{}) != nil }()
	if !<-found {
		panic("no tenant") // want `^SC: system ctxValueMissingWrong is wrong even under sequential consistency`
	}
}

// ctxValueThroughCancel: a context derived from one with a value carries
// it; the inner of two values of one key wins.
//
//fencecheck:system
func ctxValueThroughCancel() {
	ctx := context.WithValue(context.Background(), requestIDKey{}, "outer")
	ctx = context.WithValue(ctx, requestIDKey{}, "req-1")
	ctx, cancel := context.WithCancel(ctx)
	id := make(chan string)
	go func() {
		<-ctx.Done()
		s, _ := ctx.Value(requestIDKey{}).(string)
		id <- s
	}()
	cancel()
	if <-id != "req-1" {
		panic("not the request's ID")
	}
}

// ctxValueShared: the value is a pointer both goroutines write through.
//
//fencecheck:system
func ctxValueShared() {
	ctx := context.WithValue(context.Background(), requestIDKey{}, new(int))
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			*ctx.Value(requestIDKey{}).(*int) += 1 // want `^race: `
		}()
	}
	wg.Wait()
}
