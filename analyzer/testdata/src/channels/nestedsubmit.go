package channels

import "sync"

// A pool whose tasks may submit tasks to the same pool and wait for
// them: the wrapper submit queues calls the task it wraps, which may call
// submit again, so the functions sent on the channel make more of them.

type nestPool struct {
	tasks chan func()
	wg    sync.WaitGroup
}

func newNestPool(n int) *nestPool {
	p := &nestPool{tasks: make(chan func(), 3)}
	for range n {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *nestPool) work() {
	defer p.wg.Done()
	for t := range p.tasks {
		t()
	}
}

func (p *nestPool) submit(f func() int) chan int {
	r := make(chan int, 1)
	p.tasks <- func() { r <- f() }
	return r
}

// nestedSubmitOneWorker waits, in the only worker, for a task queued
// behind it: it waits for ever, and so does main.
//
//fencecheck:system
func nestedSubmitOneWorker() {
	p := newNestPool(1)
	r := p.submit(func() int {
		inner := p.submit(func() int { return 2 })
		return <-inner + 1 // want `^deadlock: work and main block forever in <-inner and <-r \(system nestedSubmitOneWorker\)$`
	})
	<-r
	close(p.tasks)
	p.wg.Wait()
}

// nestedSubmitTwoWorkers has a second worker for the inner task.
//
//fencecheck:system
func nestedSubmitTwoWorkers() {
	p := newNestPool(2)
	r := p.submit(func() int {
		inner := p.submit(func() int { return 2 })
		return <-inner + 1
	})
	if <-r != 3 {
		panic("not the inner task's result plus one")
	}
	close(p.tasks)
	p.wg.Wait()
}

func submitWrapped2(tasks chan func(), f func()) {
	tasks <- func() { f() }
}

// wrapsItsWrapper runs, itself, a wrapped task that submits another
// wrapped task (fencecheck's lowering of it did not end).
//
//fencecheck:system
func wrapsItsWrapper() {
	tasks := make(chan func(), 2)
	r := make(chan int, 1)
	submitWrapped2(tasks, func() {
		submitWrapped2(tasks, func() { r <- 1 })
	})
	(<-tasks)()
	(<-tasks)()
	if <-r == 1 {
		panic("the inner task ran") // want `^SC: system wrapsItsWrapper is wrong even under sequential consistency`
	}
}
