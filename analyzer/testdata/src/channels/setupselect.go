package channels

import "sync"

// A select in the set-up, which runs alone before the goroutines start:
// the ready case is the one that runs, or the default.

// setupTrySend sends without blocking while there is room, and gives up
// when there is none.
//
//fencecheck:system
func setupTrySend() {
	ch := make(chan int, 1)
	select {
	case ch <- 1:
	default:
		panic("a buffered channel with room")
	}
	select {
	case ch <- 2:
		panic("a full channel")
	default:
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if v := <-ch; v != 1 {
			panic("wrong value")
		}
	}()
	wg.Wait()
}

// setupTryRecv takes the closed channel, the only ready case.
//
//fencecheck:system
func setupTryRecv() {
	ch := make(chan int, 1)
	done := make(chan struct{})
	close(done)
	n := 0
	select {
	case v := <-ch:
		n = v
	case <-done:
		n = 2
	}
	go func() {
		if n != 2 {
			panic("the closed channel was not the ready case")
		}
	}()
}

// setupDrained is its buggy twin: the buffered value is received, so the
// goroutine's check fails.
//
//fencecheck:system
func setupDrained() {
	ch := make(chan int, 1)
	ch <- 5
	n := 0
	select {
	case v, ok := <-ch:
		if ok {
			n = v
		}
	default:
	}
	go func() {
		if n == 5 {
			panic("received the buffered value") // want `^SC: system setupDrained is wrong even under sequential consistency`
		}
	}()
}
