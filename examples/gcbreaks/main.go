// Command gcbreaks runs two plain-field algorithms for real, compiled by gc
// with its optimisations on, and prints what breaks: a seqlock whose reader
// sees torn pairs (gc deletes the writer's first increment of the sequence
// number and may merge the reader's loads of it), and a Peterson lock whose
// waiters can spin forever (gc forwards the stored victim into the spin
// loop's test). Each run is bounded in time. fencecheck reports both as data
// races; their atomic versions in package locks do not break.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

type seqLock struct {
	seq  uint32
	a, b uint64
}

//go:noinline
func (s *seqLock) write(v uint64) {
	s.seq++
	s.a = v
	s.b = v
	s.seq++
}

//go:noinline
func (s *seqLock) read() (uint64, uint64, bool) {
	start := s.seq
	if start%2 == 1 {
		return 0, 0, false
	}
	a, b := s.a, s.b
	return a, b, s.seq == start
}

// tornReads runs a writer and a reader of a plain seqlock for d and counts
// the reads the seqlock accepted although the pair was torn.
func tornReads(d time.Duration) (reads, torn int) {
	var s seqLock
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := uint64(1); !stop.Load(); v++ {
			s.write(v)
		}
	}()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		for range 1000 {
			if a, b, ok := s.read(); ok {
				reads++
				if a != b {
					torn++
				}
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	return reads, torn
}

type peterson struct {
	interested [2]bool
	victim     int32
}

//go:noinline
func (l *peterson) lock(me int32) {
	other := 1 - me
	l.interested[me] = true
	l.victim = me
	for l.interested[other] && l.victim == me {
	}
}

//go:noinline
func (l *peterson) unlock(me int32) { l.interested[me] = false }

// petersonHangs runs rounds of two goroutines taking a plain Peterson lock
// once each, and counts the rounds that did not finish within d.
func petersonHangs(rounds int, d time.Duration) (hung int) {
	for range rounds {
		var l peterson
		done := make(chan struct{}, 2)
		for me := range int32(2) {
			go func() {
				l.lock(me)
				l.unlock(me)
				done <- struct{}{}
			}()
		}
		timeout := time.After(d)
		for range 2 {
			select {
			case <-done:
			case <-timeout:
				hung++
				return hung // the stuck goroutines spin on; stop here
			}
		}
	}
	return hung
}

func main() {
	runtime.GOMAXPROCS(2)
	reads, torn := tornReads(2 * time.Second)
	fmt.Printf("plain seqlock: %d of %d accepted reads were torn\n", torn, reads)
	hung := petersonHangs(200, 500*time.Millisecond)
	fmt.Printf("plain Peterson lock: %d round(s) of 200 hung for 500ms (a hung round ends the run)\n", hung)
}
