// Package errgroup follows golang.org/x/sync/errgroup: a Group of a
// WaitGroup, a sync.Once guarding the first error and the error itself; Go
// adds one to the WaitGroup and starts f in a goroutine that records f's
// error through the Once; Wait waits and returns the first error.
//
// Expected, by hand: firstError is correct and race-free (the error is
// stored under the Once and read after Wait: the Group's functions are
// closures called through a func() error value, the error an errors.New
// sentinel compared by identity). The mutant firstErrorEarly reads the
// error before Wait: a race on g.err, and the error may still be nil.
package errgroup

import (
	"errors"
	"sync"
)

// Group runs functions and keeps the first error.
type Group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err }) // want `^race: go@\d+ stores g\.err here while main loads g\.err`
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

var errBoom = errors.New("boom")

//fencecheck:system
func firstError() {
	var g Group
	g.Go(func() error { return errBoom })
	g.Go(func() error { return nil })
	if err := g.Wait(); err != errBoom {
		panic("lost the error")
	}
}

// firstErrorEarly looks at the error before waiting.
//
//fencecheck:system
func firstErrorEarly() {
	var g Group
	g.Go(func() error { return errBoom })
	if g.err != errBoom {
		panic("not yet") // want `^SC: system firstErrorEarly is wrong even under sequential consistency`
	}
	g.Wait()
}
