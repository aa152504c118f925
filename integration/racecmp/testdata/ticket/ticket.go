// Package ticket is the x86 ticket spinlock with a plain release
// (examples/locks), each goroutine taking the lock twice: the plain
// increment of serving races with the other goroutine's atomic load.
//
// Expected: racy.
package ticket

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// TicketLock hands out tickets by fetch-and-add and serves them in order.
type TicketLock struct {
	next    atomic.Uint32
	serving uint32
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

// system runs two goroutines that take the lock twice each.
//
//fencecheck:system
func system() {
	var l TicketLock
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			for range 2 {
				l.Lock()
				//fencecheck:critical
				l.Unlock()
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
