package ticket

import (
	"runtime"
	"sync/atomic"
)

// TicketLock is the x86 ticket spinlock of Linux: a fetch-and-add (LOCK
// XADD) draws the ticket, and the holder releases the lock by a plain
// increment of serving. Only the holder stores to serving, so the release
// needs no barrier on x86-TSO. The counters have no bound: the predicate
// engine proves the lock and nothing is reported.
type TicketLock struct {
	next    atomic.Uint32
	serving uint32
}

func (l *TicketLock) Lock() {
	ticket := l.next.Add(1) - 1
	for atomic.LoadUint32(&l.serving) != ticket {
		runtime.Gosched()
	}
}

func (l *TicketLock) Unlock() {
	l.serving++
}

//fencecheck:system
func ticketLock() {
	var l TicketLock
	for range 2 {
		go func() {
			for {
				l.Lock()
				//fencecheck:critical
				l.Unlock()
			}
		}()
	}
}

// plainTicket draws the ticket by a plain load and store of next instead
// of a fetch-and-add: two goroutines can draw the same ticket, which is
// wrong on any machine.
//
//fencecheck:system
func plainTicket() {
	var next, serving int64
	for range 2 {
		go func() {
			for {
				ticket := next
				next = ticket + 1
				for serving != ticket {
					runtime.Gosched()
				}
				//fencecheck:critical
				serving = ticket + 1 // want `^SC: system plainTicket is wrong even under sequential consistency`
			}
		}()
	}
}
