package locks

import "sync"

// Dekker is Dekker's mutual-exclusion algorithm for two goroutines, with
// plain (non-atomic) fields. It is correct under sequential consistency, but
// on x86 a goroutine's store to its flag can wait in the store buffer while
// its load of the other goroutine's flag already reads memory: both
// goroutines then see the other's flag down and enter.
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

// dekkerWorker enters and leaves the critical section once.
func dekkerWorker(l *Dekker, wg *sync.WaitGroup, me int) {
	l.Lock(me)
	//fencecheck:critical
	l.Unlock(me)
	wg.Done()
}

// dekkerSystem runs two goroutines through Dekker's lock.
//
//fencecheck:system
func dekkerSystem() {
	var l Dekker
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go dekkerWorker(&l, &wg, i)
	}
	wg.Wait()
}
