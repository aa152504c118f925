// Package errorgroup follows the Group of github.com/hashicorp/go-multierror:
// Go runs a function in a goroutine of its own and, when it fails, appends
// its error to the group's under the group's mutex; Wait waits for every
// function and returns what was gathered. errors.Join stands for
// multierror.Append here, as the standard library now gathers errors.
//
// Expected, by hand: fetchBoth is correct and race-free: the first fetch
// fails with ErrTimeout, the second succeeds, and Wait returns an error in
// which errors.Is finds ErrTimeout. The mutant waitEarly is a Wait that
// returns what was gathered without waiting for the functions: its read
// of the group's error races with a function's join (race finding), and
// it may return nil (the SC finding on the panic).
package errorgroup

import (
	"errors"
	"sync"
)

// ErrTimeout is the error of a fetch that took too long.
var ErrTimeout = errors.New("timeout")

// Group runs functions and gathers their errors.
type Group struct {
	mutex sync.Mutex
	err   error
	wg    sync.WaitGroup
}

// Go runs f in a goroutine, keeping its error.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mutex.Lock()
			g.err = errors.Join(g.err, err) // want `^race: go@\d+ stores g\.err here while main loads g\.err`
			g.mutex.Unlock()
		}
	}()
}

// Wait waits for the functions and returns their errors.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.mutex.Lock()
	defer g.mutex.Unlock()
	return g.err
}

// waitEarly returns the errors gathered so far.
func (g *Group) waitEarly() error {
	return g.err
}

func fetch(ok bool) error {
	if !ok {
		return ErrTimeout
	}
	return nil
}

//fencecheck:system
func fetchBoth() {
	var g Group
	g.Go(func() error { return fetch(false) })
	g.Go(func() error { return fetch(true) })
	if err := g.Wait(); !errors.Is(err, ErrTimeout) {
		panic("lost the timeout")
	}
}

//fencecheck:system
func waitEarly() {
	var g Group
	g.Go(func() error { return fetch(false) })
	g.Go(func() error { return fetch(true) })
	if err := g.waitEarly(); !errors.Is(err, ErrTimeout) {
		panic("lost the timeout") // want `^SC: system waitEarly is wrong even under sequential consistency`
	}
	g.wg.Wait()
}
