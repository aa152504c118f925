package blocking

import (
	"sync"
	"time"
)

// Blocking bugs beside a goroutine that runs for ever (a flusher on a
// ticker nothing stops): the others still block for ever when it cannot
// wake them.

// leakBesideTicker: a goroutine locks a mutex twice while a flusher ticks.
//
//fencecheck:system
func leakBesideTicker() {
	t := time.NewTicker(time.Millisecond)
	var mu sync.Mutex
	go func() {
		for range t.C {
		}
	}()
	go func() {
		mu.Lock()
		mu.Lock() // want `^leak: go@\d+ blocks forever in mu\.Lock\(\) after system leakBesideTicker returns$`
	}()
}

// waitBesideTicker: main waits for a goroutine that is never started.
//
//fencecheck:system
func waitBesideTicker() {
	t := time.NewTicker(time.Millisecond)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range t.C {
		}
	}()
	go func() { wg.Done() }()
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system waitBesideTicker\)$`
}

// tickerWakes: the ticking goroutine is the one that sends: no bug.
//
//fencecheck:system
func tickerWakes() {
	t := time.NewTicker(time.Millisecond)
	ch := make(chan int, 1)
	go func() {
		for range t.C {
			select {
			case ch <- 1:
			default:
			}
		}
	}()
	<-ch
}
