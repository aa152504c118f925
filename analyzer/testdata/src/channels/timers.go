package channels

import "time"

// Timers fire once, at a moment that may be any: not yet when a select
// looks, or long after. Each system here was once judged wrongly.

// timerDefault takes the default case: the hour has not passed.
//
//fencecheck:system
func timerDefault() {
	go func() {
		select {
		case <-time.After(time.Hour):
		default:
			panic("the timer had not fired") // want `^SC: system timerDefault is wrong even under sequential consistency`
		}
	}()
}

// timerTwice receives twice from one timer, which delivers once.
//
//fencecheck:system
func timerTwice() {
	t := time.After(time.Second)
	go func() { <-t; <-t }() // want `^leak: go@\d+ blocks forever in <-t after system timerTwice returns$`
}

// tickerStopped receives from a ticker after stopping it: nothing comes.
//
//fencecheck:system
func tickerStopped() {
	tk := time.NewTicker(time.Second)
	go func() { tk.Stop(); <-tk.C }() // want `^leak: go@\d+ blocks forever in <-tk\.C after system tickerStopped returns$`
}

// timerOrResult waits for a result or the timer, then for the result.
//
//fencecheck:system
func timerOrResult() {
	t := time.After(time.Second)
	res := make(chan int)
	go func() { res <- 1 }()
	select {
	case <-res:
	case <-t:
		<-res
	}
}
