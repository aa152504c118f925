// Package ticketlock follows the Linux kernel's ticket spinlock as Go ports
// write it: two counters, a fetch-and-add on next to draw a ticket, a spin
// until serving reaches it, and an increment of serving to release.
//
// Expected, by hand: ticketCounter is correct and race-free (tickets are
// distinct because Add is atomic, and serving passes them one at a time).
// The counters only grow; with two goroutines locking once each they stay
// below 3. loadStoreTicket draws the ticket with a load and a store of next:
// both goroutines can draw ticket 0 and enter together (race on n, and a
// lost update, SC finding on the panic).
package ticketlock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// TicketLock is a fair spin lock.
type TicketLock struct {
	next    atomic.Uint32
	serving atomic.Uint32
}

func (l *TicketLock) Lock() {
	t := l.next.Add(1) - 1
	for l.serving.Load() != t {
		runtime.Gosched()
	}
}

func (l *TicketLock) Unlock() {
	l.serving.Add(1)
}

//fencecheck:system
func ticketCounter() {
	var l TicketLock
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			l.Lock()
			n++
			l.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// lockLoadStore draws the ticket without a fetch-and-add.
func (l *TicketLock) lockLoadStore() {
	t := l.next.Load()
	l.next.Store(t + 1)
	// Two goroutines that draw the same ticket: the second waits here
	// forever for a ticket already served.
	for l.serving.Load() != t { // want `^deadlock: go@\d+(#2)? and main block forever in l\.serving\.Load\(\) and wg\.Wait\(\) \(system loadStoreTicket\)$`
		runtime.Gosched()
	}
}

//fencecheck:system
func loadStoreTicket() {
	var l TicketLock
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			l.lockLoadStore()
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\)`
			l.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}
