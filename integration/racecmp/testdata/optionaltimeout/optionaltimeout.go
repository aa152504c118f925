// Package optionaltimeout waits for a reply with an optional timeout, a
// nil channel unless a duration is set, as many clients write it; on a
// timeout the waiter records it in a plain field that the caller reads
// without waiting for the waiter.
//
// Expected: racy.
package optionaltimeout

import "time"

type call struct {
	timedOut bool
}

func (c *call) wait(reply chan int, d time.Duration) {
	var timeout <-chan time.Time
	if d > 0 {
		timeout = time.After(d)
	}
	select {
	case <-reply:
	case <-timeout:
		c.timedOut = true
	}
}

// system: the reply comes, but the timer may fire first.
//
//fencecheck:system
func system() {
	var c call
	reply := make(chan int, 1)
	go c.wait(reply, time.Nanosecond)
	reply <- 1
	_ = c.timedOut
}
