package channels

import (
	"sync"
	"time"
)

// An optional timeout, as net/http's and many clients' wait loops write
// it: a nil channel (a case that never proceeds) unless a duration is
// set, then a timer's channel.

func waitFor(ch chan int, d time.Duration) bool {
	var timeout <-chan time.Time
	if d > 0 {
		timeout = time.After(d)
	}
	select { // want `^deadlock: go@43 and main block forever in select and <-done \(system optionalTimeoutUnset\)$`
	case <-ch:
		return true
	case <-timeout:
		return false
	}
}

// optionalTimeoutSet waits with a timeout for a value nobody sends: the
// timer ends the wait.
//
//fencecheck:system
func optionalTimeoutSet() {
	ch := make(chan int)
	done := make(chan bool)
	go func() { done <- waitFor(ch, time.Second) }()
	<-done
}

// optionalTimeoutUnset waits without one: the goroutine and main wait
// for ever.
//
//fencecheck:system
func optionalTimeoutUnset() {
	ch := make(chan int)
	done := make(chan bool)
	go func() { done <- waitFor(ch, 0) }()
	<-done
}

// optionalTimeoutFires checks that the value came: the timer may fire
// first.
//
//fencecheck:system
func optionalTimeoutFires() {
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() { done <- waitFor(ch, time.Second) }()
	ch <- 1
	if !<-done {
		panic("timed out") // want `^SC: system optionalTimeoutFires is wrong even under sequential consistency`
	}
}

// optionalTimerPerWait arms a timer for the second wait only, in the
// iteration that waits on it: it may fire before the second value comes,
// and the sender then waits for ever.
//
//fencecheck:system
func optionalTimerPerWait() {
	work := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 2; i++ {
			var timeout <-chan time.Time
			if i == 1 {
				t := time.NewTimer(time.Second)
				timeout = t.C
			}
			select {
			case <-work:
			case <-timeout:
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		work <- 1
		work <- 2 // want `^deadlock: go@85 and main block forever in work <- 2 and wg\.Wait\(\) \(system optionalTimerPerWait\)$`
	}()
	wg.Wait()
}

// optionalTimerCarried keeps the first iteration's timer's channel in a
// variable for the next: the timer is one the loop makes, and the loop's
// header learns its channel from the back edge, over the rounds of
// lowering. Both receives find an element or the timeout.
//
//fencecheck:system
func optionalTimerCarried() {
	work := make(chan int, 2)
	go func() {
		var timeout <-chan time.Time
		for i := 0; i < 2; i++ {
			if i == 0 {
				t := time.NewTimer(time.Second)
				timeout = t.C
			}
			select {
			case <-work:
			case <-timeout:
			}
		}
	}()
	work <- 1
	work <- 2
}

// optionalTimerCarriedQuits: the worker quits at the carried timeout,
// and the sender of the second element blocks for ever.
//
//fencecheck:system
func optionalTimerCarriedQuits() {
	work := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		var timeout <-chan time.Time
		for i := 0; i < 2; i++ {
			if i == 0 {
				t := time.NewTimer(time.Second)
				timeout = t.C
			}
			select {
			case <-work:
			case <-timeout:
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		work <- 1 // want `^deadlock: go@\d+ and main block forever in work <- 1 and wg\.Wait\(\)`
		work <- 2
	}()
	wg.Wait()
}
