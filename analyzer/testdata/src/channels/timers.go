package channels

import (
	"sync"
	"sync/atomic"
	"time"
)

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

// timerStopReports stops a timer that a goroutine also waits on: Stop
// reports false once the goroutine has received, and then main leaves it
// waiting to send.
//
//fencecheck:system
func timerStopReports() {
	t := time.NewTimer(time.Second)
	work := make(chan int)
	done := make(chan bool)
	go func() {
		select {
		case <-work:
		case <-t.C:
		}
		done <- true // want `^leak: go@\d+ blocks forever in done <- true after system timerStopReports returns$`
	}()
	if !t.Stop() {
		return
	}
	work <- 1
	<-done
}

// timerStopDrains is its fixed twin: whatever Stop reports, main waits.
//
//fencecheck:system
func timerStopDrains() {
	t := time.NewTimer(time.Second)
	work := make(chan int)
	done := make(chan bool)
	go func() {
		select {
		case <-work:
		case <-t.C:
		}
		done <- true
	}()
	if t.Stop() {
		work <- 1
	}
	<-done
}

// timerStopped receives from a stopped timer: since Go 1.23 nothing stale
// comes after Stop.
//
//fencecheck:system
func timerStopped() {
	t := time.NewTimer(time.Second)
	t.Stop()
	go func() { <-t.C }() // want `^leak: go@\d+ blocks forever in <-t\.C after system timerStopped returns$`
}

// timerReset re-arms a stopped timer: it fires again.
//
//fencecheck:system
func timerReset() {
	t := time.NewTimer(time.Second)
	t.Stop()
	done := make(chan bool)
	go func() {
		<-t.C
		done <- true
	}()
	t.Reset(time.Second)
	<-done
}

// afterFuncLocked: the function runs in a goroutine of its own, at any
// moment unless Stop comes first; the mutex orders its update.
//
//fencecheck:system
func afterFuncLocked() {
	var mu sync.Mutex
	n := 0
	t := time.AfterFunc(time.Second, func() {
		mu.Lock()
		n++
		mu.Unlock()
	})
	mu.Lock()
	n++
	mu.Unlock()
	t.Stop()
}

// afterFuncRace is its buggy twin: nothing orders the two updates.
//
//fencecheck:system
func afterFuncRace() {
	n := 0
	t := time.AfterFunc(time.Second, func() {
		n++ // want `^race: `
	})
	n++
	t.Stop()
}

// afterFuncStopped: Stop reports true only when the function has not
// started, and then it never starts.
//
//fencecheck:system
func afterFuncStopped() {
	var fired atomic.Bool
	t := time.AfterFunc(time.Second, func() { fired.Store(true) })
	if t.Stop() && fired.Load() {
		panic("stopped, but it ran")
	}
}

// afterFuncStoppedLate is its buggy twin: Stop reporting false means it
// started, not that it has finished.
//
//fencecheck:system
func afterFuncStoppedLate() {
	var fired atomic.Bool
	t := time.AfterFunc(time.Second, func() { fired.Store(true) })
	if !t.Stop() && !fired.Load() {
		panic("it had not run yet") // want `^SC: system afterFuncStoppedLate is wrong even under sequential consistency`
	}
}

// ticketSem is a semaphore with a timeout, the shape of
// eapache/go-resiliency's: each Acquire makes a timer of its own.
type ticketSem struct{ sem chan struct{} }

func (s *ticketSem) acquire() bool {
	timer := time.NewTimer(time.Second)
	select {
	case s.sem <- struct{}{}:
		timer.Stop()
		return true
	case <-timer.C:
		return false
	}
}

func (s *ticketSem) release() { <-s.sem } // want `^deadlock: go@\d+, go@\d+#2 and main block forever in <-s\.sem and wg\.Wait\(\) \(system semTimeoutIgnored\)$`

// semGuarded: only a goroutine that got the ticket touches n.
//
//fencecheck:system
func semGuarded() {
	s := &ticketSem{sem: make(chan struct{}, 1)}
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			if !s.acquire() {
				return
			}
			n++
			s.release()
		}()
	}
	wg.Wait()
}

// semTimeoutIgnored is its buggy twin: a goroutine whose timer fired first
// goes on without the ticket, and its release waits for a ticket nobody
// holds.
//
//fencecheck:system
func semTimeoutIgnored() {
	s := &ticketSem{sem: make(chan struct{}, 1)}
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.acquire()
			n++ // want `^race: `
			s.release()
		}()
	}
	wg.Wait()
}
