// Package bakery4 is Lamport's bakery lock for four goroutines on atomics,
// with tickets bounded as in Memorax's bounded bakery: a goroutine that
// would take a ticket above maxTicket leaves the doorway (choosing back to
// 0, so that the holder of the high ticket is not held up by it) and starts
// again.
// Every access is atomic, so the goroutines run under sequential
// consistency on x86-TSO too, and the state space is the bakery's under
// SC: millions of states for four goroutines. No //fencecheck:range: the
// tickets' bound is found from the code.
//
// Expected, by hand: correct and race-free (the bakery algorithm excludes
// two goroutines from the critical section; the bound only makes a
// goroutine retry).
package bakery4

import (
	"runtime"
	"sync/atomic"
)

const (
	n         = 4
	maxTicket = 6
)

// Bakery is the bakery lock on atomics.
type Bakery struct {
	choosing [n]atomic.Int32
	number   [n]atomic.Int32 // 0..maxTicket: no directive, the bound is the code's
}

// Lock enters the critical section as goroutine me: it takes a ticket one
// above every ticket it sees (starting over while that would pass
// maxTicket), then waits for each other goroutine that is choosing or
// holds a ticket served first (ties go to the lower index).
func (b *Bakery) Lock(me int) {
	var ticket int32
	for {
		b.choosing[me].Store(1)
		var highest int32
		for k := range n {
			if t := b.number[k].Load(); t > highest {
				highest = t
			}
		}
		if highest < maxTicket {
			ticket = highest + 1
			break
		}
		// Leave the doorway while a ticket this high is held, so that its
		// holder, which waits for choosing[me] to drop, gets through.
		b.choosing[me].Store(0)
		runtime.Gosched()
	}
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
