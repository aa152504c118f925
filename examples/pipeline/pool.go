package pipeline

import "sync"

// pool runs jobs on a fixed number of workers and collects their results.
type pool struct {
	jobs    chan int
	results chan int
	wg      sync.WaitGroup
}

func (p *pool) worker() {
	defer p.wg.Done()
	for j := range p.jobs {
		p.results <- j * j
	}
}

// run starts two workers, queues two jobs and sums the results. It waits
// for the workers before it reads a result: with an unbuffered results
// channel the workers wait for the reader, which waits for them.
func (p *pool) run() int {
	for range 2 {
		p.wg.Add(1)
		go p.worker()
	}
	p.jobs <- 1
	p.jobs <- 2
	close(p.jobs)
	p.wg.Wait()
	close(p.results)
	sum := 0
	for r := range p.results {
		sum += r
	}
	return sum
}

//fencecheck:system
func poolSystem() {
	p := &pool{jobs: make(chan int, 2), results: make(chan int)}
	if p.run() != 5 {
		panic("lost a result")
	}
}

// poolFixedSystem gives the results channel room for every result.
//
//fencecheck:system
func poolFixedSystem() {
	p := &pool{jobs: make(chan int, 2), results: make(chan int, 2)}
	if p.run() != 5 {
		panic("lost a result")
	}
}
