// Package procsem follows the worker-pool example of
// golang.org/x/sync/semaphore: maxWorkers = runtime.GOMAXPROCS(0) tokens
// bound how many jobs run at once, each job holds one while it computes
// its slot of out, and acquiring every token at the end waits for the
// jobs. The weighted semaphore is a buffered channel of maxWorkers tokens
// here, as code without x/sync writes it, and each job acquires its token
// in its own goroutine: fencecheck refuses the example's acquire before
// each go statement, a send that would block while the system function
// still runs alone as the set-up.
//
// Expected, by hand: boundedJobs is correct and race-free for every
// GOMAXPROCS from 1 to 4: no more than maxWorkers jobs hold a token at
// once (the running count never exceeds it), and the WaitGroup orders
// every slot's write before the check. The mutant drainTokens keeps the
// example's final wait, acquiring every token, with the acquisitions
// moved into the goroutines: the system function can fill the channel
// before a job takes a token, and then finds that job's slot empty (SC,
// whatever GOMAXPROCS is, so the finding names no value). There is no
// race: a job writes its slot only while it holds a token, and the
// channel orders its release before the send that fills the channel.
package procsem

import (
	"runtime"
	"sync"
	"sync/atomic"
)

func steps(n int) int {
	return 2 * n
}

//fencecheck:system
func boundedJobs() {
	maxWorkers := runtime.GOMAXPROCS(0)
	sem := make(chan struct{}, maxWorkers)
	var running atomic.Int32
	out := make([]int, 3)
	var wg sync.WaitGroup
	wg.Add(len(out))
	for i := range 3 {
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if running.Add(1) > int32(maxWorkers) {
				panic("more jobs than tokens")
			}
			out[i] = steps(i + 1)
			running.Add(-1)
		}()
	}
	wg.Wait()
	for i, v := range out {
		if v != steps(i+1) {
			panic("a job did not finish")
		}
	}
}

//fencecheck:system
func drainTokens() {
	maxWorkers := runtime.GOMAXPROCS(0)
	sem := make(chan struct{}, maxWorkers)
	out := make([]int, 3)
	for i := range 3 {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = steps(i + 1)
		}()
	}
	for range maxWorkers {
		sem <- struct{}{}
	}
	for i, v := range out {
		if v != steps(i+1) {
			panic("a job did not finish") // want `^SC: system drainTokens is wrong even under sequential consistency: the panic is reached here`
		}
	}
}
