package channels

import (
	"sync"
	"time"
)

// Timers made in a loop of a goroutine, each dead by the next one's
// creation (used only in its iteration): one timer, armed again where
// the next is made.

// timersInLoop waits for two timers, one after the other.
//
//fencecheck:system
func timersInLoop() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 2; i++ {
			t := time.NewTimer(time.Millisecond)
			<-t.C
		}
	}()
	wg.Wait()
}

// stoppedThenReceived: the second iteration stops its timer and then
// waits on its channel, which no value reaches after Stop (Go 1.23).
//
//fencecheck:system
func stoppedThenReceived() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 2; i++ {
			t := time.NewTimer(time.Millisecond)
			if i == 1 {
				t.Stop()
			}
			<-t.C // want `^deadlock: go@\d+ and main block forever in <-t.C and wg.Wait\(\)`
		}
	}()
	wg.Wait()
}

// idleWorker gives up waiting for work after an idle timeout, made for
// each wait, as worker pools do; the producer's later send then finds no
// receiver.
//
//fencecheck:system
func idleWorker() {
	work := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			idle := time.NewTimer(time.Second)
			select {
			case _, ok := <-work:
				idle.Stop()
				if !ok {
					return
				}
			case <-idle.C:
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		work <- 1 // want `^deadlock: go@\d+ and main block forever in work <- 1 and wg.Wait\(\)`
		close(work)
	}()
	wg.Wait()
}

// idleWorkerHandsOff: the producer gives up too when nobody takes the
// work.
//
//fencecheck:system
func idleWorkerHandsOff() {
	work := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			idle := time.NewTimer(time.Second)
			select {
			case _, ok := <-work:
				idle.Stop()
				if !ok {
					return
				}
			case <-idle.C:
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		select {
		case work <- 1:
		default:
		}
		close(work)
	}()
	wg.Wait()
}

// timerKept: the previous iteration's timer is stopped after the next
// one is made: each run of the call takes a timer of its own (one of a
// pool, as an allocation in a loop does), so the stop is the old one's
// and the receive the new one's.
//
//fencecheck:system
func timerKept() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var prev *time.Timer
		for i := 0; i < 2; i++ {
			t := time.NewTimer(time.Millisecond)
			if prev != nil {
				prev.Stop()
			}
			prev = t
			<-t.C
		}
	}()
	wg.Wait()
}
