package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// wgGoInGoroutine: a goroutine starts two workers with WaitGroup.Go and
// waits for them before it reports.
//
//fencecheck:system
func wgGoInGoroutine() {
	var sum atomic.Int32
	done := make(chan int32)
	go func() {
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { sum.Add(int32(i) + 1) })
		}
		wg.Wait()
		done <- sum.Load()
	}()
	if <-done != 3 {
		panic("a worker lost")
	}
}

// wgGoNoWait: the twin that reads a plain result without waiting.
//
//fencecheck:system
func wgGoNoWait() {
	var total int32
	done := make(chan int32)
	go func() {
		var wg sync.WaitGroup
		wg.Go(func() { total = 1 }) // want `^race: go@\d+ stores total here while go@\d+ loads total at wggo.go:\d+:\d+, and nothing orders the two \(system wgGoNoWait\)`
		done <- total
		wg.Wait()
	}()
	<-done
}
