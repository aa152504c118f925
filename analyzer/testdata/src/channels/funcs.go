package channels

import "sync"

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
