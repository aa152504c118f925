// Package taskpool has a pool of workers fed by a channel of tasks that
// the pool's first run makes under a sync.Once, as
// github.com/sourcegraph/conc's pool does: a run hands its task to an idle
// worker, or starts a worker and then hands it over on the unbuffered
// channel. The set-up thus sends between go statements and ends before the
// first run: the system function's goroutine makes the channel and stores
// it in the pool, where the workers load it.
package taskpool

import "sync"

type pool struct {
	wg    sync.WaitGroup
	once  sync.Once
	tasks chan func()
}

func (p *pool) init() { p.once.Do(func() { p.tasks = make(chan func()) }) }

func (p *pool) worker() {
	defer p.wg.Done()
	for f := range p.tasks {
		f()
	}
}

func (p *pool) run(f func()) {
	p.init()
	select {
	case p.tasks <- f:
	default:
		p.wg.Add(1)
		go p.worker()
		p.tasks <- f
	}
}

func (p *pool) wait() {
	p.init()
	close(p.tasks)
	p.wg.Wait()
}

// twoLocked: the tasks' increments under a mutex are both kept.
//
//fencecheck:system
func twoLocked() {
	var mu sync.Mutex
	n := 0
	var p pool
	p.run(func() { mu.Lock(); n++; mu.Unlock() })
	p.run(func() { mu.Lock(); n++; mu.Unlock() })
	p.wait()
	if n != 2 {
		panic("lost update")
	}
}

// twoPlain: two workers may run the tasks at once and lose one.
//
//fencecheck:system
func twoPlain() {
	n := 0
	var p pool
	p.run(func() { n++ })
	p.run(func() { n++ })
	p.wait()
	if n != 2 {
		panic("lost update")
	}
}

// loopLocked: the runs in a loop; the first one's Once makes the channel,
// which no later iteration makes again.
//
//fencecheck:system
func loopLocked() {
	var mu sync.Mutex
	n := 0
	var p pool
	for i := 0; i < 2; i++ {
		p.run(func() { mu.Lock(); n++; mu.Unlock() })
	}
	p.wait()
	if n != 2 {
		panic("lost update")
	}
}

// loopPlain: the same without the mutex.
//
//fencecheck:system
func loopPlain() {
	n := 0
	var p pool
	for i := 0; i < 2; i++ {
		p.run(func() { n++ })
	}
	p.wait()
	if n != 2 {
		panic("lost update")
	}
}
