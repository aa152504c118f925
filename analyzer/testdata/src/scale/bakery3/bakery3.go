// Package bakery3 is Lamport's bakery lock for three goroutines on
// atomics, taken again and again, so that the tickets have no bound: the
// system has no finite domain and goes to the predicate engine.
//
// Expected, by hand: correct and race-free (every shared access is atomic,
// so the goroutines run under sequential consistency, where the bakery
// algorithm excludes two goroutines from the critical section).
package bakery3

import (
	"runtime"
	"sync/atomic"
)

const n = 3

// Bakery is the bakery lock on atomics.
type Bakery struct {
	choosing [n]atomic.Int32
	number   [n]atomic.Int64
}

// Lock enters the critical section as goroutine me: it takes a ticket one
// above every ticket it sees, then waits for each other goroutine that is
// choosing or holds a ticket served first (ties go to the lower index).
func (b *Bakery) Lock(me int) {
	b.choosing[me].Store(1)
	var highest int64
	for k := range n {
		if t := b.number[k].Load(); t > highest {
			highest = t
		}
	}
	ticket := highest + 1
	b.number[me].Store(ticket)
	b.choosing[me].Store(0)
	for k := range n {
		if k == me {
			continue
		}
		for b.choosing[k].Load() != 0 {
			runtime.Gosched()
		}
		for {
			t := b.number[k].Load()
			if t == 0 || t > ticket || (t == ticket && k > me) {
				break
			}
			runtime.Gosched()
		}
	}
}

// Unlock leaves the critical section as goroutine me.
func (b *Bakery) Unlock(me int) {
	b.number[me].Store(0)
}

//fencecheck:system
func bakerySystem() {
	var b Bakery
	for i := range n {
		go func(me int) {
			for {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
		}(i)
	}
}
