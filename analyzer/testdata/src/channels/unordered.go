package channels

import "sync"

// Observations that order nothing: the Go memory model gives no
// happens-before edge to len, to a select that takes its default, or to a
// Cond's Signal. Each system here once passed as race-free.

// lenObserves reads x once len says the goroutine has sent.
//
//fencecheck:system
func lenObserves() {
	var x int32
	ch := make(chan int, 1)
	go func() { x = 1; ch <- 1 }() // want `^race: go@\d+ stores x here while main loads x`
	if len(ch) == 1 {
		if x != 1 {
			panic("x")
		}
	}
}

// defaultObserves reads x in the default case, taken once the goroutine has
// emptied the channel.
//
//fencecheck:system
func defaultObserves() {
	var x int32
	ch := make(chan int, 1)
	ch <- 1
	go func() { x = 1; <-ch }() // want `^race: go@\d+ stores x here while main loads x`
	select {
	case <-ch:
		ch <- 1
	default:
		_ = x
	}
}

// signalObserves reads x after a Wait that a Signal outside the lock ended.
//
//fencecheck:system
func signalObserves() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var x int32
	go func() {
		x = 1 // want `^race: go@\d+ stores x here while main loads x`
		c.Signal()
	}()
	mu.Lock()
	c.Wait() // want `^deadlock: main blocks forever in c\.Wait\(\)`
	mu.Unlock()
	_ = x
}
