package locks

import (
	"runtime"
	"sync/atomic"
)

// TicketLock is the ticket spinlock of the Linux kernel on x86 (2008): a
// goroutine draws a ticket by a fetch-and-add on next and waits until serving
// reaches it; the holder releases the lock by a plain increment of serving.
// The fetch-and-add is a LOCK XADD, which drains the store buffer, and only
// the holder ever stores to serving, so the release needs no barrier on
// x86-TSO: a late release only makes the next goroutine wait longer. Both
// counters grow without bound, so fencecheck proves the lock with its
// predicate engine; it says nothing.
//
// The plain increment is the point of the example: on amd64 an atomic store
// would be an XCHG, a full barrier the algorithm does not need. Other
// architectures, and the Go memory model, want atomic.StoreUint32.
type TicketLock struct {
	next    atomic.Uint32 // the next ticket to hand out
	serving uint32        // the ticket allowed in; written by the holder only
}

// Lock draws a ticket and spins until it is served.
func (l *TicketLock) Lock() {
	ticket := l.next.Add(1) - 1
	for atomic.LoadUint32(&l.serving) != ticket {
		runtime.Gosched()
	}
}

// Unlock serves the next ticket.
func (l *TicketLock) Unlock() {
	l.serving++
}

// ticketLockSystem runs two goroutines that take the ticket lock again and
// again, so that the tickets have no bound.
//
//fencecheck:system
func ticketLockSystem() {
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
