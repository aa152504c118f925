package locks

import (
	"runtime"
	"sync/atomic"
)

// AtomicTicketLock is the ticket lock with the holder's increment of serving
// made atomic: in Go a plain store that another goroutine's atomic load can
// meet is a data race, however harmless the same MOV is on x86.
type AtomicTicketLock struct {
	next    atomic.Uint32
	serving atomic.Uint32
}

// Lock takes a ticket and waits for its turn.
func (l *AtomicTicketLock) Lock() {
	ticket := l.next.Add(1) - 1
	for l.serving.Load() != ticket {
		runtime.Gosched()
	}
}

// Unlock lets the next ticket in.
func (l *AtomicTicketLock) Unlock() {
	l.serving.Add(1)
}

// atomicTicketLockSystem runs two goroutines through the lock forever.
//
//fencecheck:system
func atomicTicketLockSystem() {
	var l AtomicTicketLock
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
