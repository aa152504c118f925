package channels

import "time"

// A select with a timer case and an unbuffered stop case: once a sender
// has met the select's offer on stop, the select returns that case; the
// timer can no longer be taken (it was, and the goroutine's x++ then raced
// with main's read after the send).

// timerOrStop: if the timer fires first, nothing receives main's stop: a
// deadlock; if stop is met first, the goroutine returns. No race either
// way (x++ comes before the receive that lets main's send complete).
//
//fencecheck:system
func timerOrStop() {
	x := 0
	stop := make(chan bool)
	go func() {
		select {
		case <-time.After(time.Millisecond):
			x++
		case <-stop:
			return
		}
	}()
	stop <- true // want `^deadlock: main blocks forever in stop <- true \(system timerOrStop\)`
	_ = x
}

// janitorStop: go-cache's janitor, a ticker loop stopped by an unbuffered
// channel: the work of each tick happens before the stop is taken.
//
//fencecheck:system
func janitorStop() {
	swept := false
	stop := make(chan bool)
	t := time.NewTicker(time.Millisecond)
	go func() {
		for {
			select {
			case <-t.C:
				swept = true
			case <-stop:
				t.Stop()
				return
			}
		}
	}()
	stop <- true
	_ = swept
}
