// Package ticketatomic is the ticket spinlock with an atomic release
// (examples/locks), each goroutine taking the lock twice.
//
// Expected: race-free.
package ticketatomic

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// TicketLock hands out tickets by fetch-and-add and serves them in order.
type TicketLock struct {
	next    atomic.Uint32
	serving atomic.Uint32
}

// Lock draws a ticket and spins until it is served.
func (l *TicketLock) Lock() {
	ticket := l.next.Add(1) - 1
	for l.serving.Load() != ticket {
		runtime.Gosched()
	}
}

// Unlock serves the next ticket.
func (l *TicketLock) Unlock() {
	l.serving.Add(1)
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
