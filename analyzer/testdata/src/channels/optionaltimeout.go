package channels

import "time"

// An optional timeout, as net/http's and many clients' wait loops write
// it: a nil channel (a case that never proceeds) unless a duration is
// set, then a timer's channel.

func waitFor(ch chan int, d time.Duration) bool {
	var timeout <-chan time.Time
	if d > 0 {
		timeout = time.After(d)
	}
	select { // want `^deadlock: go@40 and main block forever in select and <-done \(system optionalTimeoutUnset\)$`
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
