// Package optionaltimeoutlocked waits for a reply with an optional
// timeout, a nil channel unless a duration is set, as many clients write
// it; the caller reads what the waiter recorded after it is done.
//
// Expected: race-free.
package optionaltimeoutlocked

import "time"

type call struct {
	timedOut bool
}

func (c *call) wait(reply chan int, d time.Duration, done chan struct{}) {
	var timeout <-chan time.Time
	if d > 0 {
		timeout = time.After(d)
	}
	select {
	case <-reply:
	case <-timeout:
		c.timedOut = true
	}
	close(done)
}

// system: the reply comes, but the timer may fire first.
//
//fencecheck:system
func system() {
	var c call
	reply := make(chan int, 1)
	done := make(chan struct{})
	go c.wait(reply, time.Nanosecond, done)
	reply <- 1
	<-done
	_ = c.timedOut
}
