// Package workerstack follows the goroutine pool of panjf2000/ants: idle
// workers wait on their task channels and are kept in a stack (a slice
// made with no room, grown by append under the pool's lock); Submit takes
// the worker on top, or starts a new one while the pool is below its
// capacity, or waits on the pool's sync.Cond until a worker comes back.
// A worker puts itself back after each task and signals the Cond.
//
// Expected, by hand: twoTasks is correct (with one worker the second task
// waits for the first to come back, and runs on it; the count is 2).
// twoWorkersUnlocked counts on two workers without a lock: a race and a
// lost update (race and SC findings). silentRevert forgets to signal when
// a worker comes back: the second Submit waits on the Cond forever while
// the worker idles (a deadlock).
package workerstack

import (
	"sync"
	"sync/atomic"
)

// worker is what the stack keeps, as ants keeps its goWorker behind an
// interface.
type worker interface {
	inputFunc(func())
	finish()
}

// workerStack is the idle workers, the last one back on top.
type workerStack struct {
	items []worker
}

func newWorkerStack(size int) *workerStack {
	return &workerStack{items: make([]worker, 0, size)}
}

func (ws *workerStack) insert(w worker) { ws.items = append(ws.items, w) }

func (ws *workerStack) detach() worker {
	l := len(ws.items)
	if l == 0 {
		return nil
	}
	w := ws.items[l-1]
	ws.items[l-1] = nil
	ws.items = ws.items[:l-1]
	return w
}

// goWorker runs the tasks sent on its channel until a nil one.
type goWorker struct {
	pool *Pool
	task chan func()
}

func (w *goWorker) run() {
	w.pool.running.Add(1)
	go func() {
		defer w.pool.running.Add(-1)
		for f := range w.task {
			if f == nil {
				return
			}
			f()
			if !w.pool.revertWorker(w) {
				return
			}
		}
	}()
}

func (w *goWorker) inputFunc(f func()) { w.task <- f }
func (w *goWorker) finish()            { w.task <- nil }

// Pool runs tasks on at most capacity workers.
type Pool struct {
	capacity int32
	running  atomic.Int32
	lock     sync.Mutex
	cond     *sync.Cond
	workers  *workerStack
	closed   bool
	// silent marks the flawed revert that does not signal the Cond.
	silent bool
}

// NewPool makes a pool of at most size workers.
func NewPool(size int32) *Pool {
	p := &Pool{capacity: size, workers: newWorkerStack(0)}
	p.cond = sync.NewCond(&p.lock)
	return p
}

// Submit runs task on an idle worker, a new one, or the first to come
// back.
func (p *Pool) Submit(task func()) {
	p.retrieveWorker().inputFunc(task)
}

func (p *Pool) retrieveWorker() worker {
	p.lock.Lock()
	for {
		if w := p.workers.detach(); w != nil {
			p.lock.Unlock()
			return w
		}
		if p.running.Load() < p.capacity {
			p.lock.Unlock()
			w := &goWorker{pool: p, task: make(chan func(), 1)}
			w.run()
			return w
		}
		p.cond.Wait() // want `^deadlock: main and go@\d+\(#0\) block forever in p\.cond\.Wait\(\) and range w\.task \(system silentRevert\)`
	}
}

func (p *Pool) revertWorker(w *goWorker) bool {
	p.lock.Lock()
	if p.closed {
		p.lock.Unlock()
		return false
	}
	p.workers.insert(w)
	if !p.silent {
		p.cond.Signal()
	}
	p.lock.Unlock()
	return true
}

// Release stops the idle workers; the others stop when they come back.
func (p *Pool) Release() {
	p.lock.Lock()
	p.closed = true
	for w := p.workers.detach(); w != nil; w = p.workers.detach() {
		w.finish()
	}
	p.lock.Unlock()
}

// twoTasks runs two tasks on a pool of one worker.
//
//fencecheck:system
func twoTasks() {
	p := NewPool(1)
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		p.Submit(func() {
			n.Add(1)
			wg.Done()
		})
	}
	wg.Wait()
	p.Release()
	if n.Load() != 2 {
		panic("a task was lost")
	}
}

// twoWorkersUnlocked runs two tasks on a pool of two workers, counting
// without a lock.
//
//fencecheck:system
func twoWorkersUnlocked() {
	p := NewPool(2)
	n := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		p.Submit(func() {
			n++ // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores n\) at once`
			wg.Done()
		})
	}
	wg.Wait()
	p.Release()
	if n != 2 {
		panic("a task was lost") // want `^SC: system twoWorkersUnlocked is wrong even under sequential consistency`
	}
}

// silentRevert is twoTasks on the pool whose workers come back without a
// signal.
//
//fencecheck:system
func silentRevert() {
	p := NewPool(1)
	p.silent = true
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		p.Submit(func() {
			n.Add(1)
			wg.Done()
		})
	}
	wg.Wait()
	p.Release()
}
