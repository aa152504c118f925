// Package errgroup is a small stand-in for golang.org/x/sync/errgroup with
// the same API, so that testdata packages type-check without the module.
// fencecheck reads the errgroup source that the build resolves, as it reads
// any dependency's; this one follows the real package's documentation.
package errgroup

import (
	"context"
	"sync"
)

// A Group runs goroutines and keeps the first error one returns.
type Group struct {
	wg     sync.WaitGroup
	once   sync.Once
	err    error
	cancel func()
	limit  chan struct{} // nil: no limit
}

// WithContext returns a Group whose first error cancels the context.
func WithContext(ctx context.Context) (*Group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &Group{cancel: cancel}, ctx
}

// SetLimit lets at most n goroutines of the group run at once; a negative
// n removes the limit.
func (g *Group) SetLimit(n int) {
	if n < 0 {
		g.limit = nil
		return
	}
	g.limit = make(chan struct{}, n)
}

// Go runs f in a goroutine of the group, waiting first for room under the
// limit.
func (g *Group) Go(f func() error) {
	if g.limit != nil {
		g.limit <- struct{}{}
	}
	g.wg.Add(1)
	go func() {
		defer g.end()
		if err := f(); err != nil {
			g.once.Do(func() {
				g.err = err
				if g.cancel != nil {
					g.cancel()
				}
			})
		}
	}()
}

func (g *Group) end() {
	if g.limit != nil {
		<-g.limit
	}
	g.wg.Done()
}

// Wait waits for the group's goroutines and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	if g.cancel != nil {
		g.cancel()
	}
	return g.err
}
