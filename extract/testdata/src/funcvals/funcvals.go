package funcvals

import (
	"errors"
	"sync"
	"sync/atomic"
)

// A Group runs functions and keeps the first error.
type Group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

// Go runs f in a goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err })
		}
	}()
}

// Wait waits for the functions and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

var errBoom = errors.New("boom")

func run(g *Group, fail bool) {
	g.Go(func() error {
		if fail {
			return errBoom
		}
		return nil
	})
}

// group: one of the functions fails, Wait returns its error.
//
//fencecheck:system
func group() {
	var g Group
	run(&g, true)
	run(&g, false)
	if err := g.Wait(); err != errBoom {
		panic("lost the error")
	}
}

// groupNoWait reads the error without waiting.
//
//fencecheck:system
func groupNoWait() {
	var g Group
	run(&g, true)
	if g.err != errBoom {
		panic("not yet")
	}
	g.Wait()
}

// funcLocal calls a function value chosen at run time.
//
//fencecheck:system
func funcLocal() {
	var flag atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		flag.Store(true)
		wg.Done()
	}()
	wg.Wait()
	f := func() int { return 1 }
	if flag.Load() {
		f = func() int { return 2 }
	}
	if f() != 2 {
		panic("wrong function")
	}
}
