package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// A catcher in the style of sourcegraph/conc's panics.Catcher: a worker,
// run under a deferred recover, takes tasks from a channel and calls them;
// a task that panics ends the worker, and the catcher keeps the first
// panic.

type catcher struct {
	caught atomic.Int32
}

func (c *catcher) try(f func()) {
	defer c.recoverPanic()
	f()
}

func (c *catcher) recoverPanic() {
	if r := recover(); r != nil {
		c.caught.Add(1)
	}
}

type taskPool struct {
	tasks chan func()
	wg    sync.WaitGroup
	c     catcher
}

func (p *taskPool) worker() {
	for f := range p.tasks {
		f()
	}
}

func (p *taskPool) start() {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.c.try(p.worker)
	}()
}

// caughtTask: the second task panics; the catcher counts it and the
// worker's goroutine ends normally, so Wait returns.
//
//fencecheck:system
func caughtTask() {
	p := &taskPool{tasks: make(chan func(), 2)}
	p.start()
	var ran atomic.Int32
	p.tasks <- func() { ran.Add(1) }
	p.tasks <- func() { panic("task failed") }
	close(p.tasks)
	p.wg.Wait()
	if p.c.caught.Load() != 1 || ran.Load() != 1 {
		panic("panic not caught once")
	}
}

// caughtTaskWrong expects no panic to have been caught.
//
//fencecheck:system
func caughtTaskWrong() {
	p := &taskPool{tasks: make(chan func(), 2)}
	p.start()
	p.tasks <- func() {}
	p.tasks <- func() { panic("task failed") }
	close(p.tasks)
	p.wg.Wait()
	if p.c.caught.Load() != 0 {
		panic("caught a panic") // want `^SC: system caughtTaskWrong is wrong even under sequential consistency: the panic is reached here`
	}
}
