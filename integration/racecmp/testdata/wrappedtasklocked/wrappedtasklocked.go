// Package wrappedtasklocked has a pool that wraps each task in a closure
// of its own before it queues it, in the style of sourcegraph/conc's
// ErrorPool.Go: the wrapper adds the task's result to the sum under the
// pool's mutex.
//
// Expected: race-free.
package wrappedtasklocked

import "sync"

type pool struct {
	tasks chan func()
	wg    sync.WaitGroup
	mu    sync.Mutex
	sum   int
}

func (p *pool) Go(f func() int) {
	p.tasks <- func() {
		v := f()
		p.mu.Lock()
		p.sum += v
		p.mu.Unlock()
	}
}

// system: two workers, two tasks over the loop's variable.
//
//fencecheck:system
func system() {
	p := &pool{tasks: make(chan func(), 2)}
	for range 2 {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for t := range p.tasks {
				t()
			}
		}()
	}
	for i := range 2 {
		p.Go(func() int { return i + 1 })
	}
	close(p.tasks)
	p.wg.Wait()
	if p.sum != 3 {
		panic("lost a result")
	}
}
