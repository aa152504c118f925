// Package limitgroup has a group of goroutines with a limit, as
// golang.org/x/sync/errgroup's SetLimit: a buffered channel made after the
// group, a send on it before each go statement and a receive when each
// goroutine ends, all in methods the system function calls in a loop.
package limitgroup

import (
	"errors"
	"sync"
)

type token struct{}

// A group runs functions in goroutines, at most cap(sem) at a time.
type group struct {
	wg      sync.WaitGroup
	sem     chan token
	errOnce sync.Once
	err     error
}

func (g *group) done() {
	if g.sem != nil {
		<-g.sem
	}
	g.wg.Done()
}

func (g *group) setLimit(n int) { g.sem = make(chan token, n) }

func (g *group) run(f func() error) {
	if g.sem != nil {
		g.sem <- token{}
	}
	g.wg.Add(1)
	go func() {
		defer g.done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err })
		}
	}()
}

func (g *group) wait() error {
	g.wg.Wait()
	return g.err
}

// limitOne: one at a time, the limit's channel orders the increments.
//
//fencecheck:system
func limitOne() {
	n := 0
	var g group
	g.setLimit(1)
	for i := 0; i < 3; i++ {
		g.run(func() error { n++; return nil })
	}
	if err := g.wait(); err != nil {
		panic(err)
	}
	if n != 3 {
		panic("lost update")
	}
}

// limitTwo: two at a time may both read n before either writes it.
//
//fencecheck:system
func limitTwo() {
	n := 0
	var g group
	g.setLimit(2)
	for i := 0; i < 3; i++ {
		g.run(func() error { n++; return nil })
	}
	g.wait()
	if n != 3 {
		panic("lost update")
	}
}

// noLimit: without a limit the group orders nothing but the wait.
//
//fencecheck:system
func noLimit() {
	n := 0
	var g group
	g.run(func() error { n++; return nil })
	g.run(func() error { n++; return nil })
	g.wait()
	if n != 2 {
		panic("lost update")
	}
}

// firstError: the error a goroutine returns, kept under the Once, is read
// after the wait; the limit makes the set-up wait for the first goroutine
// before it starts the second.
//
//fencecheck:system
func firstError() {
	var g group
	g.setLimit(1)
	g.run(func() error { return errBoom })
	g.run(func() error { return nil })
	if g.wait() != errBoom {
		panic("lost the error")
	}
}

var errBoom = errors.New("boom")
