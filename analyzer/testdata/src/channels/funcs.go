package channels

import (
	"sync"
	"sync/atomic"
)

// A worker pool whose jobs are closures on a channel, the shape of
// gammazero/workerpool and of many hand-written pools.

type funcPool struct {
	jobs chan func()
	wg   sync.WaitGroup
}

func (p *funcPool) worker() {
	defer p.wg.Done()
	for job := range p.jobs { // want `^deadlock: worker and main block forever in range p\.jobs and p\.wg\.Wait\(\) \(system poolNotClosed\)$`
		job() // want `^SC: system poolNilJob is wrong even under sequential consistency`
	}
}

func (p *funcPool) submit(f func()) { p.jobs <- f }

// poolLocked: two workers run two jobs that update a total under a mutex.
//
//fencecheck:system
func poolLocked() {
	p := &funcPool{jobs: make(chan func(), 2)}
	var mu sync.Mutex
	total := 0 //fencecheck:range 0..3
	p.wg.Add(2)
	go p.worker()
	go p.worker()
	add := func(n int) func() {
		return func() {
			mu.Lock()
			total += n
			mu.Unlock()
		}
	}
	p.submit(add(1))
	p.submit(add(2))
	close(p.jobs)
	p.wg.Wait()
	if total != 3 {
		panic("lost a job")
	}
}

// poolRace is its buggy twin: the jobs update the total unlocked.
//
//fencecheck:system
func poolRace() {
	p := &funcPool{jobs: make(chan func(), 2)}
	total := 0 //fencecheck:range 0..2
	p.wg.Add(2)
	go p.worker()
	go p.worker()
	p.submit(func() { total++ }) // want `^race: `
	p.submit(func() { total++ })
	close(p.jobs)
	p.wg.Wait()
}

// poolNotClosed never closes the queue: the worker waits for more.
//
//fencecheck:system
func poolNotClosed() {
	p := &funcPool{jobs: make(chan func(), 2)}
	p.wg.Add(1)
	go p.worker()
	p.submit(func() {})
	p.wg.Wait()
}

// poolNilJob submits a nil function: the worker's call panics.
//
//fencecheck:system
func poolNilJob() {
	p := &funcPool{jobs: make(chan func(), 1)}
	p.wg.Add(1)
	go p.worker()
	var f func()
	p.submit(f)
	close(p.jobs)
	p.wg.Wait()
}

// A callback field that a goroutine sets, the way servers install hooks.
type hooked struct {
	mu      sync.Mutex
	n       int
	onClose func()
}

// hookSetLocked: the hook is set and read under the mutex, and called
// only when set.
//
//fencecheck:system
func hookSetLocked() {
	h := &hooked{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.mu.Lock()
		h.onClose = func() { h.n++ }
		h.mu.Unlock()
	}()
	wg.Wait()
	if f := h.onClose; f != nil {
		f()
	}
}

// hookSetRacing is its buggy twin: nothing orders the store and the load.
//
//fencecheck:system
func hookSetRacing() {
	h := &hooked{}
	go func() {
		h.onClose = func() {} // want `^race: `
	}()
	if f := h.onClose; f != nil {
		f()
	}
}

// hookCleared calls a hook another goroutine may have cleared.
//
//fencecheck:system
func hookCleared() {
	h := &hooked{onClose: func() {}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.mu.Lock()
		h.onClose = nil
		h.mu.Unlock()
	}()
	h.mu.Lock()
	f := h.onClose
	h.mu.Unlock()
	f() // want `^SC: system hookCleared is wrong even under sequential consistency`
	wg.Wait()
}

// nilCheckedChoice compares a function value chosen at run time with nil:
// the call happens only when it is set (a regression: the comparison was
// once taken as always true).
//
//fencecheck:system
func nilCheckedChoice() {
	var ready atomic.Bool
	go func() { ready.Store(true) }()
	var f func()
	if ready.Load() {
		f = func() {}
	}
	if f != nil {
		f()
	}
}
