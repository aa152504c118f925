// Package listwaiters follows the waiter queue of
// golang.org/x/sync/semaphore: a container/list.List, whose empty list
// links its root element to itself on first use (&l.root stored in a
// field), holding the tickets of the goroutines that wait, pushed at the
// back and served from the front under the semaphore's mutex.
//
// Expected, by hand: fifoTickets is correct and race-free (two goroutines
// take a ticket, an integer computed at run time, and push it under the
// mutex (taking it before the lock would let a later ticket be pushed
// first); the
// server takes them from the front in order once both are in). frontPeek
// lets the server look at the front without the mutex: it races with the
// pushes on the list's length (race finding).
package listwaiters

import (
	"container/list"
	"sync"
)

type waiters struct {
	mu   sync.Mutex
	list list.List
	next int
}

func (w *waiters) enqueue() {
	w.mu.Lock()
	w.next++
	w.list.PushBack(w.next)
	w.mu.Unlock()
}

//fencecheck:system
func fifoTickets() {
	var w waiters
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			w.enqueue()
			wg.Done()
		}()
	}
	wg.Wait()
	w.mu.Lock()
	prev := 0
	for e := w.list.Front(); e != nil; e = e.Next() {
		t := e.Value.(int)
		if t <= prev {
			panic("tickets out of order")
		}
		prev = t
	}
	w.mu.Unlock()
}

//fencecheck:system
func frontPeek() { // want `^race: go@\d+ stores w\.list\.len here while go@\d+ loads w\.list\.len`
	var w waiters
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		w.enqueue()
		wg.Done()
	}()
	go func() {
		if w.list.Len() > 1 {
			panic("more waiters than enqueued")
		}
		wg.Done()
	}()
	wg.Wait()
}
