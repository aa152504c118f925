// Package dekker is Dekker's lock on plain fields (examples/locks). Every
// access to flag and turn races under the Go memory model.
//
// Expected: racy.
package dekker

import "sync"

// Dekker is Dekker's mutual-exclusion algorithm for two goroutines.
type Dekker struct {
	flag [2]int32 // flag[i] == 1: goroutine i wants to enter
	turn int32    // whose turn it is to insist
}

// Lock enters the critical section as goroutine me (0 or 1).
func (l *Dekker) Lock(me int) {
	other := 1 - me
	l.flag[me] = 1
	for l.flag[other] == 1 {
		if l.turn != int32(me) {
			l.flag[me] = 0
			for l.turn != int32(me) {
			}
			l.flag[me] = 1
		}
	}
}

// Unlock leaves the critical section as goroutine me.
func (l *Dekker) Unlock(me int) {
	l.turn = int32(1 - me)
	l.flag[me] = 0
}

// worker enters and leaves the critical section once.
func worker(l *Dekker, wg *sync.WaitGroup, me int) {
	l.Lock(me)
	//fencecheck:critical
	l.Unlock(me)
	wg.Done()
}

// system runs two goroutines through Dekker's lock.
//
//fencecheck:system
func system() {
	var l Dekker
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go worker(&l, &wg, i)
	}
	wg.Wait()
}
