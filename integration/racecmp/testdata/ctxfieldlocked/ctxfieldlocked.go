// Package ctxfieldlocked keeps a context and its cancel function in a service's
// fields, as servers do (s.ctx, s.cancel = context.WithCancel(...) in the
// constructor, s.cancel = nil once cancelled). A worker made after the
// constructor makes its own context for a second field, which main loads
// once the worker is done.
//
// Expected: race-free.
package ctxfieldlocked

import (
	"context"
	"sync"
)

type service struct {
	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	workCtx context.Context
}

// system: main clears the cancel function under the lock the worker reads
// it under.
//
//fencecheck:system
func system() {
	s := &service{}
	ctx, cancel := context.WithCancel(context.Background())
	s.ctx, s.cancel = ctx, cancel
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		c := s.cancel
		s.mu.Unlock()
		work, stop := context.WithCancel(s.ctx)
		s.mu.Lock()
		s.workCtx = work
		s.mu.Unlock()
		if c != nil {
			c()
		}
		stop()
	}()
	s.mu.Lock()
	s.cancel = nil
	s.mu.Unlock()
	cancel()
	<-s.ctx.Done()
	wg.Wait()
	s.mu.Lock()
	w := s.workCtx
	s.mu.Unlock()
	<-w.Done()
}
