// Package conccatcher follows github.com/sourcegraph/conc: a WaitGroup
// whose Go runs each task through a panics.Catcher, whose Try defers
// tryRecover; tryRecover recovers the panic's value and keeps the first
// one in an atomic.Pointer[Recovered] (CompareAndSwap from nil), and
// WaitAndRecover waits for the tasks and returns it, which AsError turns
// into an error for the caller.
//
// Expected, by hand: firstPanic is correct and race-free: one task
// panics, its worker recovers (tryRecover is the deferred call itself, so
// its recover stops the panic), the Recovered is published by the CAS and
// read after Wait, and its Value is the panic's. The mutant wrappedRecover
// defers a closure that calls tryRecover: recover is then called by a
// function the deferred call calls, returns nil as the Go specification
// says, and the panic escapes the worker and crashes the program (SC at
// the panic).
package conccatcher

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Recovered is a recovered panic.
type Recovered struct {
	Value any
}

// AsError returns the panic as an error, or nil.
func (p *Recovered) AsError() error {
	if p == nil {
		return nil
	}
	return errPanicked
}

var errPanicked = errors.New("a task panicked")

// Catcher keeps the first panic of the functions it runs.
type Catcher struct {
	recovered atomic.Pointer[Recovered]
}

// Try runs f and keeps its panic, if any.
func (p *Catcher) Try(f func()) {
	defer p.tryRecover()
	f()
}

func (p *Catcher) tryRecover() {
	if val := recover(); val != nil {
		rp := Recovered{Value: val}
		p.recovered.CompareAndSwap(nil, &rp)
	}
}

// Recovered returns the first panic caught, or nil.
func (p *Catcher) Recovered() *Recovered {
	return p.recovered.Load()
}

// WaitGroup runs tasks and catches their panics.
type WaitGroup struct {
	wg sync.WaitGroup
	pc Catcher
}

// Go runs f in a new goroutine.
func (h *WaitGroup) Go(f func()) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.pc.Try(f)
	}()
}

// WaitAndRecover waits for the tasks and returns the first panic.
func (h *WaitGroup) WaitAndRecover() *Recovered {
	h.wg.Wait()
	return h.pc.Recovered()
}

func task(i int) {
	if i == 1 {
		panic("task 1 failed") // want `^SC: system wrappedRecover is wrong even under sequential consistency: the panic is reached here`
	}
}

//fencecheck:system
func firstPanic() {
	var wg WaitGroup
	for i := range 2 {
		wg.Go(func() { task(i) })
	}
	r := wg.WaitAndRecover()
	if r.AsError() == nil || r.Value != "task 1 failed" {
		panic("the task's panic was lost")
	}
}

// tryWrapped defers a closure around tryRecover.
func (p *Catcher) tryWrapped(f func()) {
	defer func() { p.tryRecover() }()
	f()
}

//fencecheck:system
func wrappedRecover() {
	var pc Catcher
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			pc.tryWrapped(func() { task(i) })
		}()
	}
	wg.Wait()
	if pc.Recovered() == nil {
		panic("the task's panic was lost")
	}
}
