package uncomputed

import (
	"sync"
	"sync/atomic"
)

// Constructs a goroutine reaches that the model does not lower are
// refused only where a run reaches them: a branch that the set-up's
// options turn off refuses nothing (go-deadlock's Opts.Disable), and what
// the refused instruction had lowered (here a goroutine it started) is
// undone, so it cannot show as a goroutine that never runs.

var options struct{ disable bool }

var slots [2]int32

func fill(p *int32) { atomic.StoreInt32(p, 1) }

// track starts a goroutine on a slot that a load picks: a go statement
// inside a goroutine with a pointer chosen at run time, which the model
// does not lower.
func track(mu *sync.Mutex) {
	if options.disable {
		mu.Lock()
		return
	}
	go fill(&slots[atomic.LoadInt32(&slots[0])&1])
	mu.Lock()
}

// disabledTracking turns tracking off in the set-up: decided, correct.
//
//fencecheck:system
func disabledTracking() {
	options.disable = true
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			track(&mu)
			n++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// disabledTrackingRacy is disabledTracking with the write outside the lock:
// the race is found as before.
//
//fencecheck:system
func disabledTrackingRacy() {
	options.disable = true
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			track(&mu)
			mu.Unlock()
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access`
			wg.Done()
		}()
	}
	wg.Wait()
}

// enabledTracking reaches the go statement: inconclusive, at nothing else
// (no goroutine left waiting to start, no deadlock).
//
//fencecheck:system
func enabledTracking() { // want `^inconclusive: system enabledTracking: a run reaches a go statement inside a goroutine with a pointer chosen at run time \(reached\.go:\d+:\d+\), which fencecheck does not model`
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		track(&mu)
		mu.Unlock()
		close(done)
	}()
	<-done
}

// raceBeforeRefusal races on cfg before the goroutine reaches the refused
// go statement: the race is a run the model follows exactly, so it is
// reported with the inconclusive verdict.
//
//fencecheck:system
func raceBeforeRefusal() { // want `^inconclusive: system raceBeforeRefusal: a run reaches a go statement inside a goroutine with a pointer chosen at run time \(reached\.go:\d+:\d+\), which fencecheck does not model, and the analysis stops there; the data races reported are in runs that do not reach it`
	var mu sync.Mutex
	cfg := 0
	done := make(chan struct{})
	go func() {
		cfg = 1 // want `^race: go@\d+ stores cfg here while main loads cfg`
		track(&mu)
		mu.Unlock()
		close(done)
	}()
	if cfg > 1 {
		panic("cfg is 0 or 1")
	}
	<-done
}

// raceAfterRefusal's race needs a run through the refused go statement:
// no run the model follows reaches it, and nothing is reported but the
// refusal.
//
//fencecheck:system
func raceAfterRefusal() { // want `^inconclusive: system raceAfterRefusal: a run reaches a go statement inside a goroutine with a pointer chosen at run time \(reached\.go:\d+:\d+\), which fencecheck does not model, and the analysis stops there \(`
	var mu sync.Mutex
	cfg := 0
	done := make(chan struct{})
	go func() {
		track(&mu)
		cfg = 1
		mu.Unlock()
		close(done)
	}()
	if cfg > 1 {
		panic("cfg is 0 or 1")
	}
	<-done
}
