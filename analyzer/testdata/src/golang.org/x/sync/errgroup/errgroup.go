// Package errgroup is a small stand-in for golang.org/x/sync/errgroup with
// the same API, so that testdata packages can import it without the
// module; fencecheck models the real package's documented behaviour and
// does not read this code.
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
}

// WithContext returns a Group whose first error cancels the context.
func WithContext(ctx context.Context) (*Group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &Group{cancel: cancel}, ctx
}

// Go runs f in a goroutine of the group.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
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

// Wait waits for the group's goroutines and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	if g.cancel != nil {
		g.cancel()
	}
	return g.err
}
