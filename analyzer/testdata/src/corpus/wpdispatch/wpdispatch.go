// Package wpdispatch follows github.com/gammazero/workerpool's dispatcher:
// Submit sends a task (a func()) on the task queue; the dispatcher, a
// goroutine looping over a select, hands each task to an idle worker over
// an unbuffered worker queue, or, when none is idle and fewer than
// maxWorkers run, starts a worker with the task (go worker(task, ...)),
// the task a function value received from the channel. A worker runs its
// task and the ones it receives until it receives nil. StopWait closes
// the task queue; the dispatcher then sends nil to every worker and waits
// for them.
//
// Expected, by hand: submitStopWait is correct (every task runs before
// StopWait returns; the count is added atomically). The mutant
// unsyncedCount counts with a plain increment: two workers race on it
// (race:) and an increment can be lost (SC:).
package wpdispatch

import (
	"sync"
	"sync/atomic"
)

// WorkerPool runs submitted tasks on at most maxWorkers goroutines.
type WorkerPool struct {
	maxWorkers  int
	taskQueue   chan func()
	workerQueue chan func()
	stoppedChan chan struct{}
}

// New starts the dispatcher of a pool of at most maxWorkers workers.
func New(maxWorkers int) *WorkerPool {
	p := &WorkerPool{
		maxWorkers:  maxWorkers,
		taskQueue:   make(chan func()),
		workerQueue: make(chan func()),
		stoppedChan: make(chan struct{}),
	}
	go p.dispatch()
	return p
}

// Submit queues a task.
func (p *WorkerPool) Submit(task func()) {
	if task != nil {
		p.taskQueue <- task
	}
}

// StopWait stops the pool after every submitted task ran.
func (p *WorkerPool) StopWait() {
	close(p.taskQueue)
	<-p.stoppedChan
}

func (p *WorkerPool) dispatch() {
	defer close(p.stoppedChan)
	var workerCount int
	var wg sync.WaitGroup
	for {
		task, ok := <-p.taskQueue
		if !ok {
			break
		}
		select {
		case p.workerQueue <- task:
		default:
			if workerCount < p.maxWorkers {
				wg.Add(1)
				go worker(task, p.workerQueue, &wg)
				workerCount++
			} else {
				p.workerQueue <- task
			}
		}
	}
	for workerCount > 0 {
		p.workerQueue <- nil
		workerCount--
	}
	wg.Wait()
}

// worker runs task, then the tasks it receives, until it receives nil.
func worker(task func(), workerQueue chan func(), wg *sync.WaitGroup) {
	for task != nil {
		task()
		task = <-workerQueue
	}
	wg.Done()
}

//fencecheck:system
func submitStopWait() {
	pool := New(2)
	var n atomic.Int32
	for range 3 {
		pool.Submit(func() { n.Add(1) })
	}
	pool.StopWait()
	if n.Load() != 3 {
		panic("a task was lost")
	}
}

//fencecheck:system
func unsyncedCount() {
	pool := New(2)
	n := 0
	for range 3 {
		pool.Submit(func() { n++ }) // want `^race: worker\(#0\) and worker\(#1\) can both reach this access \(it stores n\) at once, and nothing orders the two \(system unsyncedCount\)`
	}
	pool.StopWait()
	if n != 3 {
		panic("a task was lost") // want `^SC: system unsyncedCount is wrong even under sequential consistency: the panic is reached here`
	}
}
