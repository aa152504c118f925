package runtimecalls

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A panic catcher in the style of sourcegraph/conc's panics.Catcher: the
// first recovered panic is kept, with the program counters of
// runtime.Callers and the stack of debug.Stack, in a struct built field
// by field and returned by value, and the waiter panics again with it.

type recoveredPanic struct {
	value   any
	callers []uintptr
	stack   []byte
}

func newRecoveredPanic(skip int, value any) recoveredPanic {
	var callers [32]uintptr
	n := runtime.Callers(skip+1, callers[:])
	return recoveredPanic{
		value:   value,
		callers: callers[:n],
		stack:   debug.Stack(),
	}
}

type pcCatcher struct {
	first atomic.Pointer[recoveredPanic]
}

func (c *pcCatcher) try(f func()) {
	defer c.tryRecover()
	f()
}

func (c *pcCatcher) tryRecover() {
	if v := recover(); v != nil {
		r := newRecoveredPanic(1, v)
		c.first.CompareAndSwap(nil, &r)
	}
}

func (c *pcCatcher) repanic() {
	if r := c.first.Load(); r != nil {
		panic(r) // want `^SC: system catchFirstPanic is wrong even under sequential consistency: the panic is reached here`
	}
}

// catchFirstPanic: one task of two panics; waiting panics again.
//
//fencecheck:system
func catchFirstPanic() {
	var c pcCatcher
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.try(func() {
				if i == 1 {
					panic("task")
				}
			})
		}()
	}
	wg.Wait()
	c.repanic()
}

// catchNoPanic: no task panics; the pcCatcher keeps nothing.
//
//fencecheck:system
func catchNoPanic() {
	var c pcCatcher
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.try(func() {})
		}()
	}
	wg.Wait()
	c.repanic()
}

// callerPC reads a program counter that runtime.Callers wrote, which
// fencecheck does not compute: refused where a run reaches it.
//
//fencecheck:system
func callerPC() { // want `^inconclusive: system callerPC: a run reaches runtime\.Callers into an array that the code reads otherwise than as arr\[:n\] of its result`
	var pc atomic.Uintptr
	done := make(chan bool)
	go func() {
		var pcs [4]uintptr
		runtime.Callers(1, pcs[:])
		pc.Store(pcs[0])
		done <- true
	}()
	<-done
	_ = pc.Load()
}
