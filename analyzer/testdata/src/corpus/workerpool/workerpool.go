// Package workerpool follows github.com/gammazero/workerpool: Submit
// queues a task, a func(), on the pool's task channel; workers run the
// tasks they receive; StopWait stops the pool after every queued task
// has run, and Stop after the running ones only, abandoning the tasks
// still queued; both stop the pool once (a sync.Once) and wait for the
// workers. The dispatcher goroutine, which starts workers as tasks arrive
// and lets idle ones go, is left out: the pool starts its maxWorkers
// workers in New and they read the task channel themselves. The Once
// runs a method value rather than gammazero's closure over stop's wait
// argument: fencecheck refuses a sync.Once whose Do takes a closure made
// in an inlined method that captures its receiver ("a sync.Once chosen
// at run time").
//
// Expected, by hand: submitAndWait is correct and race-free: the two
// tasks, closures that write their own result, travel on the channel to
// the workers, which call them (a call of a received function value runs
// whichever function was sent), and StopWait returns only after both
// have run, so the results are there and ordered before the check. The
// mutant submitAndStop calls Stop where StopWait was meant: a task still
// queued when the pool stops is abandoned, so its result is missing (SC;
// no race, since Stop still waits for the workers).
package workerpool

import (
	"sync"
	"sync/atomic"
)

// WorkerPool runs submitted tasks on a fixed set of workers.
type WorkerPool struct {
	maxWorkers int
	taskQueue  chan func()
	stopOnce   sync.Once
	abandon    atomic.Bool
	wg         sync.WaitGroup
}

// New starts a pool of maxWorkers workers.
func New(maxWorkers int) *WorkerPool {
	p := &WorkerPool{maxWorkers: maxWorkers, taskQueue: make(chan func(), 2)}
	p.wg.Add(maxWorkers)
	for i := 0; i < maxWorkers; i++ {
		go p.worker()
	}
	return p
}

func (p *WorkerPool) worker() {
	defer p.wg.Done()
	for task := range p.taskQueue {
		if p.abandon.Load() {
			continue
		}
		task()
	}
}

// Submit queues task for a worker.
func (p *WorkerPool) Submit(task func()) {
	if task != nil {
		p.taskQueue <- task
	}
}

// StopWait stops the pool once every queued task has run.
func (p *WorkerPool) StopWait() {
	p.stopOnce.Do(p.closeQueue)
	p.wg.Wait()
}

// Stop stops the pool once the running tasks have finished; queued
// tasks are abandoned.
func (p *WorkerPool) Stop() {
	p.stopOnce.Do(p.abandonQueued)
	p.wg.Wait()
}

func (p *WorkerPool) closeQueue() {
	close(p.taskQueue)
}

func (p *WorkerPool) abandonQueued() {
	p.abandon.Store(true)
	close(p.taskQueue)
}

//fencecheck:system
func submitAndWait() {
	var results [2]int
	wp := New(2)
	wp.Submit(func() { results[0] = 1 })
	wp.Submit(func() { results[1] = 2 })
	wp.StopWait()
	if results[0] != 1 || results[1] != 2 {
		panic("a task did not run")
	}
}

//fencecheck:system
func submitAndStop() {
	var results [2]int
	wp := New(2)
	wp.Submit(func() { results[0] = 1 })
	wp.Submit(func() { results[1] = 2 })
	wp.Stop()
	if results[0] != 1 || results[1] != 2 {
		panic("a task did not run") // want `^SC: system submitAndStop is wrong even under sequential consistency: the panic is reached here`
	}
}
