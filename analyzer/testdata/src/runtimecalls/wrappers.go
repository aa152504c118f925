package runtimecalls

import (
	"regexp"
	"sync"
	"time"
)

// A value method called through an interface that holds a pointer (the
// clock of github.com/allegro/bigcache's shards runs through the wrapper
// (*systemClock).Epoch), and the methods of time.Duration on durations
// known only at run time.

type epochClock interface{ Epoch() int64 }

type fixedClock struct{ at int64 }

func (c fixedClock) Epoch() int64 { return c.at }

type clockedShard struct {
	clock epochClock
	mu    sync.Mutex
	last  int64
}

//fencecheck:system
func pointerWrapper() {
	s := &clockedShard{clock: &fixedClock{at: 5}}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			s.mu.Lock()
			s.last = s.clock.Epoch()
			s.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if s.last != 5 {
		panic("clock")
	}
}

// runtimeDurations: a goroutine publishes a timeout under a lock, the
// other converts it as Go does.
//
//fencecheck:system
func runtimeDurations() {
	var mu sync.Mutex
	timeout := 1500 * time.Millisecond
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		mu.Lock()
		timeout += 500 * time.Millisecond
		mu.Unlock()
		wg.Done()
	}()
	mu.Lock()
	d := timeout
	mu.Unlock()
	if ms := d.Milliseconds(); ms != 1500 && ms != 2000 {
		panic("milliseconds")
	}
	if s := d.Seconds(); s != 1.5 && s != 2.0 {
		panic("seconds")
	}
	wg.Wait()
}

// runtimeDurationsWrong forgets that the other goroutine may not have run.
//
//fencecheck:system
func runtimeDurationsWrong() {
	var mu sync.Mutex
	timeout := 1500 * time.Millisecond
	go func() {
		mu.Lock()
		timeout += 500 * time.Millisecond
		mu.Unlock()
	}()
	mu.Lock()
	d := timeout
	mu.Unlock()
	if d.Seconds() != 2.0 {
		panic("seconds") // want `^SC: system runtimeDurationsWrong is wrong even under sequential consistency`
	}
}

// pointerWrapperNil calls the value method through a nil *fixedClock:
// Go's panic, at the call.
//
//fencecheck:system
func pointerWrapperNil() {
	var c *fixedClock
	s := &clockedShard{clock: c}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.last = s.clock.Epoch() // want `^SC: system pointerWrapperNil is wrong even under sequential consistency`
	}()
	<-done
}

// badPatternInGoroutine compiles a pattern that does not compile in a
// goroutine: MustCompile's panic.
//
//fencecheck:system
func badPatternInGoroutine() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = regexp.MustCompile("(") // want `^SC: system badPatternInGoroutine is wrong even under sequential consistency: the bad state regexp: Compile\("\("\): error parsing regexp: missing closing \): .* is reached here`
	}()
	<-done
}
