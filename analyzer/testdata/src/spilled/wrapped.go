package spilled

import "sync"

// A task pool that wraps each task in a closure of its own before it
// queues it, as sourcegraph/conc's ErrorPool.Go does: the wrapper captures
// the task (a parameter, kept in a cell of its own), and the task captures
// its loop's variable, which only the submitting goroutine knows. The
// worker that calls the wrapper loads the task from that cell.

type taskPool struct {
	tasks chan func()
	wg    sync.WaitGroup
	mu    sync.Mutex
	sum   int
}

// Go queues f wrapped in a closure that adds its result to the pool's sum.
func (p *taskPool) Go(f func() int) {
	p.tasks <- func() {
		v := f()
		p.mu.Lock()
		p.sum += v
		p.mu.Unlock()
	}
}

// goUnlocked is Go without the lock.
func (p *taskPool) goUnlocked(f func() int) {
	p.tasks <- func() { p.sum += f() } // want `race: go@37 stores p.sum here`
}

// start starts n workers.
func (p *taskPool) start(n int) {
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for t := range p.tasks {
				t()
			}
		}()
	}
}

//fencecheck:system
func wrappedTasks() {
	p := &taskPool{tasks: make(chan func(), 2)}
	p.start(2)
	for i := range 2 {
		p.Go(func() int { return i + 1 })
	}
	close(p.tasks)
	p.wg.Wait()
	if p.sum != 3 {
		panic("lost a task's result")
	}
}

//fencecheck:system
func wrappedTasksWrongSum() {
	p := &taskPool{tasks: make(chan func(), 2)}
	p.start(1)
	for i := range 2 {
		p.Go(func() int { return i * 2 })
	}
	close(p.tasks)
	p.wg.Wait()
	if p.sum != 3 {
		panic("not the sum of both") // want `SC: system wrappedTasksWrongSum is wrong even under sequential consistency`
	}
}

//fencecheck:system
func wrappedTasksUnlocked() {
	p := &taskPool{tasks: make(chan func(), 2)}
	p.start(2)
	for i := range 2 {
		p.goUnlocked(func() int { return i + 1 })
	}
	close(p.tasks)
	p.wg.Wait()
}
