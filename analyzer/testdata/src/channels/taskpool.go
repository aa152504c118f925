package channels

import "sync"

// taskPool feeds workers through a channel of tasks that its first run
// makes under a sync.Once (sourcegraph/conc's pool does so): a run hands
// its task to an idle worker, or starts one and hands it over on the
// unbuffered channel. The set-up sends between go statements, so it ends
// before the first run; the system function's goroutine stores the
// channel in the pool, where the workers load it.
type taskPool struct {
	wg    sync.WaitGroup
	once  sync.Once
	tasks chan func()
}

func (p *taskPool) init() { p.once.Do(func() { p.tasks = make(chan func()) }) }

func (p *taskPool) worker() {
	defer p.wg.Done()
	for f := range p.tasks {
		f()
	}
}

func (p *taskPool) run(f func()) {
	p.init()
	select {
	case p.tasks <- f:
	default:
		p.wg.Add(1)
		go p.worker()
		p.tasks <- f
	}
}

func (p *taskPool) wait() {
	p.init()
	close(p.tasks)
	p.wg.Wait()
}

// poolTasksLocked: the tasks' increments under a mutex.
//
//fencecheck:system
func poolTasksLocked() {
	var mu sync.Mutex
	n := 0
	var p taskPool
	p.run(func() { mu.Lock(); n++; mu.Unlock() })
	p.run(func() { mu.Lock(); n++; mu.Unlock() })
	p.wait()
	if n != 2 {
		panic("lost update")
	}
}

// poolTasksRacy is its twin without the mutex: two workers may run the
// tasks at once.
//
//fencecheck:system
func poolTasksRacy() {
	n := 0
	var p taskPool
	p.run(func() { n++ }) // want `^race: `
	p.run(func() { n++ })
	p.wait()
}

// poolLoopRacy runs the tasks from a loop: the Once makes the channel in
// the first iteration only.
//
//fencecheck:system
func poolLoopRacy() {
	n := 0
	var p taskPool
	for i := 0; i < 2; i++ {
		p.run(func() { n++ }) // want `^race: `
	}
	p.wait()
}
