// Package ticketonce is the ticket lock of package ticket taken once by
// each of two goroutines: its counters stay small, so an exact engine
// decides it at once. The release is a plain increment that the next
// holder's atomic load of serving does not order: a data race under the
// Go memory model, whose interleaving shows the sync/atomic calls as the
// source writes them.
package ticketonce

import (
	"sync"
	"sync/atomic"
)

type ticketLock struct {
	next    atomic.Uint32
	serving uint32
}

func (l *ticketLock) lock() {
	ticket := l.next.Add(1) - 1
	for atomic.LoadUint32(&l.serving) != ticket { // want `^race: go@\d+#2 atomically loads l\.serving here while go@\d+ stores l\.serving at ticketonce\.go:26:2`
	}
}

func (l *ticketLock) unlock() {
	l.serving++
}

//fencecheck:system
func takeOnce() {
	var l ticketLock
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			l.lock()
			l.unlock()
			wg.Done()
		}()
	}
	wg.Wait()
}
