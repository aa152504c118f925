// Package peterson is Peterson's lock on plain fields (examples/locks).
//
// Expected: racy.
package peterson

import (
	"runtime"
	"sync"
)

// Peterson is Peterson's mutual-exclusion algorithm for two goroutines.
type Peterson struct {
	interested [2]bool
	victim     int32 // the goroutine that yields when both are interested
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *Peterson) Lock(me int) {
	other := 1 - me
	l.interested[me] = true
	l.victim = int32(me)
	for l.interested[other] && l.victim == int32(me) {
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (l *Peterson) Unlock(me int) {
	l.interested[me] = false
}

// system runs two goroutines through Peterson's lock.
//
//fencecheck:system
func system() {
	var l Peterson
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(me int) {
			l.Lock(me)
			//fencecheck:critical
			l.Unlock(me)
			wg.Done()
		}(i)
	}
	wg.Wait()
}
