package channels

import (
	"sync"
	"time"
)

// A timer a goroutine's loop makes and keeps, as cenkalti/backoff's
// defaultTimer does: made on the first round and kept in a field, Reset on
// the others, stopped when the retries end. Each run of the NewTimer takes
// a timer of its own (one of a pool), which the field points to.

type retryTimer struct{ timer *time.Timer }

func (t *retryTimer) Start(d time.Duration) {
	if t.timer == nil {
		t.timer = time.NewTimer(d)
	} else {
		t.timer.Reset(d)
	}
}

func (t *retryTimer) C() <-chan time.Time { return t.timer.C } // want `^SC: system retryKeptTimerNil is wrong even under sequential consistency: the bad state invalid memory address or nil pointer dereference`

func (t *retryTimer) Stop() {
	if t.timer != nil {
		t.timer.Stop()
	}
}

//fencecheck:system
func retryKeptTimer() {
	var tries int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := &retryTimer{}
		defer t.Stop()
		for range 2 {
			tries++
			t.Start(time.Millisecond)
			<-t.C()
		}
	}()
	wg.Wait()
	if tries != 2 {
		panic("not two tries")
	}
}

//fencecheck:system
func retryKeptTimerStopped() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := &retryTimer{}
		for i := range 2 {
			t.Start(time.Millisecond)
			if i == 1 {
				t.Stop()
			}
			<-t.C() // want `^deadlock: go@\d+ and main block forever in <-t\.C\(\) and wg\.Wait\(\)`
		}
	}()
	wg.Wait()
}

//fencecheck:system
func retryKeptTimerNil() {
	done := make(chan bool)
	go func() {
		t := &retryTimer{}
		for i := range 2 {
			if i == 1 {
				t.Start(time.Millisecond)
			}
			<-t.C() // the first round's timer is nil
		}
		done <- true
	}()
	<-done
}

// stopNilTimer: Stop of a nil *time.Timer dereferences it, as Go does
// (was taken for a call that does nothing).
//
//fencecheck:system
func stopNilTimer() {
	done := make(chan bool)
	go func() {
		defer close(done)
		var t *time.Timer
		t.Stop() // want `^SC: system stopNilTimer is wrong even under sequential consistency: the bad state invalid memory address or nil pointer dereference`
	}()
	<-done
}

// resetMissingTimer: a timer looked up under a key never stored is nil.
//
//fencecheck:system
func resetMissingTimer() {
	timers := map[int]*time.Timer{}
	for i := range 2 {
		timers[i] = time.NewTimer(time.Millisecond)
	}
	done := make(chan bool)
	go func() { done <- true }()
	timers[2].Reset(time.Millisecond) // want `^SC: system resetMissingTimer is wrong even under sequential consistency: the bad state invalid memory address or nil pointer dereference`
	<-done
}

// timerHandedOver: the set-up sends a timer to a goroutine that stops it,
// while another waits on its channel: the wait may never end.
//
//fencecheck:system
func timerHandedOver() {
	timers := make(chan *time.Timer, 1)
	done := make(chan bool)
	t := time.NewTimer(time.Millisecond)
	timers <- t
	go func() {
		(<-timers).Stop()
	}()
	go func() {
		<-t.C // want `^deadlock: go@\d+ and main block forever in <-t\.C and <-done`
		done <- true
	}()
	<-done
}

//fencecheck:system
func timerHandedOverQuit() {
	timers := make(chan *time.Timer, 1)
	quit := make(chan struct{})
	done := make(chan bool)
	t := time.NewTimer(time.Millisecond)
	timers <- t
	go func() {
		(<-timers).Stop()
		close(quit)
	}()
	go func() {
		select {
		case <-t.C:
		case <-quit:
		}
		done <- true
	}()
	<-done
}

// tickerZeroInterval: Go panics on a ticker's interval not above 0, the
// duration a goroutine read before the other set it.
//
//fencecheck:system
func tickerZeroInterval() {
	var mu sync.Mutex
	ms := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		ms = 1
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	d := time.Duration(ms) * time.Millisecond
	mu.Unlock()
	tk := time.NewTicker(d) // want `^SC: system tickerZeroInterval is wrong even under sequential consistency: the bad state non-positive interval for NewTicker`
	<-done
	tk.Stop()
}

// tickZero: time.Tick of 0 is nil, a receive from it waits for ever.
//
//fencecheck:system
func tickZero() {
	done := make(chan bool, 1)
	go func() { done <- true }()
	<-done
	<-time.Tick(0) // want `^deadlock: main blocks forever in <-time\.Tick\(0\)`
}

// zeroTimerStopped: a time.Timer the program made itself is no timer
// (Go's Stop panics on it): refused where a run reaches it.
//
//fencecheck:system
func zeroTimerStopped() { // want `^inconclusive: system zeroTimerStopped: a run reaches passing a value of type \*time\.Timer`
	timers := make(chan *time.Timer, 1)
	done := make(chan bool)
	go func() {
		(<-timers).Stop()
		done <- true
	}()
	timers <- new(time.Timer)
	<-done
}

// idlePool's dispatcher follows gammazero/workerpool's dispatch: an idle
// timer made before the loop (none when the timeout is 0), its channel in
// a variable the select waits on, Reset each time it fires.
type idlePool struct {
	tasks   chan int
	stopped chan struct{}
	last    int
	idled   bool
}

func (p *idlePool) dispatch(idleTimeout time.Duration) {
	defer close(p.stopped)
	var idleTO <-chan time.Time
	var timeout *time.Timer
	if idleTimeout > 0 {
		timeout = time.NewTimer(idleTimeout)
		defer timeout.Stop()
		idleTO = timeout.C
	}
	idle := false
	for {
		select { // want `^deadlock: dispatch\(0\) and main block forever in select and <-p\.stopped \(system idleTimerNone\)`
		case t, ok := <-p.tasks:
			if !ok {
				return
			}
			p.last = t
			idle = false
		case <-idleTO:
			if idle {
				p.idled = true
			}
			idle = true
			timeout.Reset(idleTimeout)
		}
	}
}

//fencecheck:system
func idleTimerBeforeLoop() {
	p := &idlePool{tasks: make(chan int), stopped: make(chan struct{})}
	go p.dispatch(2 * time.Second)
	p.tasks <- 1
	close(p.tasks)
	<-p.stopped
	if p.last != 1 {
		panic("a task was lost")
	}
}

//fencecheck:system
func idleTimerNeverIdle() {
	p := &idlePool{tasks: make(chan int), stopped: make(chan struct{})}
	go p.dispatch(2 * time.Second)
	p.tasks <- 1
	close(p.tasks)
	<-p.stopped
	if p.idled {
		panic("the pool was idle twice") // want `^SC: system idleTimerNeverIdle is wrong even under sequential consistency: the panic is reached here`
	}
}

//fencecheck:system
func idleTimerNone() {
	p := &idlePool{tasks: make(chan int), stopped: make(chan struct{})}
	go p.dispatch(0)
	p.tasks <- 1
	<-p.stopped
}

// A timer's channel returned through an interface with two
// implementations, as a retry loop waits on its Timer's C(): the result is
// either implementation's channel, joined over the calls' returns.

// waiter gives the channel a retry waits on.
type waiter interface {
	wait() <-chan time.Time
}

// realWaiter waits on a timer it makes on first use and resets after.
type realWaiter struct{ t *time.Timer }

func (w *realWaiter) wait() <-chan time.Time {
	if w.t == nil {
		w.t = time.NewTimer(time.Millisecond)
	} else {
		w.t.Reset(time.Millisecond)
	}
	return w.t.C
}

// fakeWaiter waits on a channel a test fills.
type fakeWaiter struct{ ch chan time.Time }

func (w *fakeWaiter) wait() <-chan time.Time { return w.ch }

// waitEither: the goroutine picks the waiter its configuration names and
// waits on it twice; the fake one holds two ticks.
//
//fencecheck:system
func waitEither() {
	cfg := make(chan bool, 1)
	cfg <- true
	fake := &fakeWaiter{ch: make(chan time.Time, 2)}
	fake.ch <- time.Time{}
	fake.ch <- time.Time{}
	done := make(chan bool)
	go func() {
		var w waiter = &realWaiter{}
		if <-cfg {
			w = fake
		}
		for range 2 {
			<-w.wait()
		}
		done <- true
	}()
	<-done
}

// waitReal: the configuration names the real waiter, whose timer fires
// after each wait's arming: both waits end.
//
//fencecheck:system
func waitReal() {
	cfg := make(chan bool, 1)
	cfg <- false
	fake := &fakeWaiter{ch: make(chan time.Time)}
	done := make(chan bool)
	go func() {
		var w waiter = &realWaiter{}
		if <-cfg {
			w = fake
		}
		for range 2 {
			<-w.wait()
		}
		done <- true
	}()
	<-done
}

// waitEitherShort is its buggy twin: the fake waiter holds one tick, so
// the second wait blocks for good.
//
//fencecheck:system
func waitEitherShort() {
	cfg := make(chan bool, 1)
	cfg <- true
	fake := &fakeWaiter{ch: make(chan time.Time, 2)}
	fake.ch <- time.Time{}
	done := make(chan bool)
	go func() {
		var w waiter = &realWaiter{}
		if <-cfg {
			w = fake
		}
		for range 2 {
			<-w.wait() // want `^deadlock: go@\d+ and main block forever in <-w\.wait\(\) and <-done`
		}
		done <- true
	}()
	<-done
}
