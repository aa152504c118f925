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
