// Package bakery is Lamport's bakery lock for two goroutines on plain fields
// (examples/locks), each goroutine taking the lock twice.
//
// Expected: racy.
package bakery

import (
	"runtime"
	"sync"
)

// Bakery is Lamport's bakery algorithm for two goroutines.
type Bakery struct {
	choosing [2]int32 // choosing[i] == 1: goroutine i is taking a ticket
	// number[i] is goroutine i's ticket; 0: not waiting. Four entries in all
	// draw tickets of at most 4.
	number [2]int64 //fencecheck:range 0..4
}

// Lock enters the critical section as goroutine me (0 or 1).
func (b *Bakery) Lock(me int) {
	other := 1 - me
	b.choosing[me] = 1
	ticket := b.number[other] + 1
	b.number[me] = ticket
	b.choosing[me] = 0
	for b.choosing[other] != 0 {
		runtime.Gosched()
	}
	for {
		n := b.number[other]
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (b *Bakery) Unlock(me int) {
	b.number[me] = 0
}

// system runs two goroutines that take the bakery lock twice each.
//
//fencecheck:system
func system() {
	var b Bakery
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func(me int) {
			for j := 0; j < 2; j++ {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
}
