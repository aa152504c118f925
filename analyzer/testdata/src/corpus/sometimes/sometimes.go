// Package sometimes follows golang.org/x/time/rate's Sometimes: a
// struct of First, Every and Interval settings and, under a mutex, the
// number of calls so far and the time.Time of the last call that ran;
// Do runs f on the first call, on the first First calls, on every
// Every-th call, or when Interval has passed since the last run (by
// time.Since), and records time.Now after running it, all under the lock.
// Interval is a constant here rather than a field: fencecheck compares a
// duration measured on its clock only with constants, and refuses
// time.Since(s.last) >= s.Interval.
//
// Expected, by hand: logSometimes is correct and race-free: the first Do
// always runs its function, and the second runs it only when a tick of
// the clock has passed since the first (time may stand still, and the
// interval is a second), so when both ran, the clock has moved past the
// set-up's reading. The mutant unlockedSkip adds a fast path that skips
// the lock when the interval has not passed: it reads the last run's
// time and the count without the lock while the other goroutine's Do
// writes them (race).
package sometimes

import (
	"sync"
	"time"
)

// Interval is the least time between two runs after the first First.
const Interval = time.Second

// Sometimes runs a function occasionally.
type Sometimes struct {
	First int
	Every int

	mu    sync.Mutex
	count int
	last  time.Time
}

// Do runs f if the settings say this call should.
func (s *Sometimes) Do(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == 0 ||
		(s.First > 0 && s.count < s.First) ||
		(s.Every > 0 && s.count%s.Every == 0) ||
		(Interval > 0 && time.Since(s.last) >= Interval) {
		f()
		s.last = time.Now() // want `^race: go@\d+(#2)? stores s\.last here while go@\d+(#2)? loads s\.last at sometimes\.go:\d+:\d+, and nothing orders the two \(system unlockedSkip\)`
	}
	s.count++ // want `^race: go@\d+(#2)? stores s\.count here while go@\d+(#2)? loads s\.count at sometimes\.go:\d+:\d+, and nothing orders the two \(system unlockedSkip\)`
}

//fencecheck:system
func logSometimes() {
	start := time.Now()
	s := &Sometimes{}
	runs := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.Do(func() { runs++ })
		}()
	}
	wg.Wait()
	if runs == 0 {
		panic("the first call did not run")
	}
	if runs == 2 && !time.Now().After(start) {
		panic("ran twice within the interval")
	}
}

// doFast skips the lock when the last run is recent.
func (s *Sometimes) doFast(f func()) {
	if s.count > 0 && time.Since(s.last) < Interval {
		return
	}
	s.Do(f)
}

//fencecheck:system
func unlockedSkip() {
	s := &Sometimes{}
	runs := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.doFast(func() { runs++ })
		}()
	}
	wg.Wait()
}
