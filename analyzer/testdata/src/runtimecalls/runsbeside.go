package runtimecalls

import (
	"math/rand"
	"sync"
	"time"
)

// Goroutines that run for ever beside a wait, in systems whose states
// are more than a finite graph shows at first sight: a counter that only
// counts, a counter that decides, and a loop whose way out is a random
// number's comparison fencecheck does not compute.

// statsJanitor counts the ticks it sees, for ever: it never looks at
// done, so main, which closes done and waits for it, waits for ever. The
// count grows without bound, but nothing of the janitor's moves reads it.
//
//fencecheck:system
func statsJanitor() {
	var ticks int
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for range t.C {
			ticks++
		}
	}()
	close(done)
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system statsJanitor\)$`
}

// statsJanitorStops is statsJanitor that returns once done is closed.
//
//fencecheck:system
func statsJanitorStops() {
	var ticks int
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				ticks++
			case <-done:
				return
			}
		}
	}()
	close(done)
	wg.Wait()
}

// countsToOverflow counts until its int overflows: Go's goroutine ends
// after 2^63 steps, which no finite graph of the states shows, and the
// count decides when: fencecheck says it did not look.
//
//fencecheck:system
func countsToOverflow() { // want `^inconclusive: system countsToOverflow: deadlocks and leaks beside goroutines that run for ever are not looked for: n \(runsbeside\.go:\d+:\d+\) grows without bound: .*; the other findings stand$`
	var n int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			n++
			if n < 0 {
				return
			}
		}
	}()
	wg.Wait()
}

// impossibleDraw leaves its loop only when a random float64 exceeds 2,
// which never happens: main waits for ever. fencecheck does not compute
// the random number, so it cannot tell.
//
//fencecheck:system
func impossibleDraw() { // want `^inconclusive: system impossibleDraw: main may wait for ever in wg\.Wait\(\) \(runsbeside\.go:\d+:\d+\): whether it does depends on .rand\.Float64\(\) > 2. \(runsbeside\.go:\d+:\d+, in go@\d+\), which fencecheck does not compute; the other findings stand$`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if rand.Float64() > 2 {
				return
			}
		}
	}()
	wg.Wait()
}

// possibleDraw leaves its loop on one value of rand.Intn(4), which the
// model computes: some run ends it, and no finding is due.
//
//fencecheck:system
func possibleDraw() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for rand.Intn(4) != 0 {
		}
	}()
	wg.Wait()
}
