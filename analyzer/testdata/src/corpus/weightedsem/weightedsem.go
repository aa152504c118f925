// Package weightedsem follows the weighted semaphore of
// golang.org/x/sync/semaphore: a size and a count of the weight held under
// a mutex, and a container/list.List of waiters, each a struct value (its
// weight and the channel that is closed when it is served) held in the
// list's any. Acquire takes the weight at once when it fits and nobody
// waits, else it queues a waiter and blocks on its channel; Release gives
// the weight back and serves the waiters at the front, in order, while
// their weight fits, counting it as held for them.
//
// Expected, by hand: oneToken is correct and race-free (a one-token
// semaphore as a lock: the goroutine that waits is served by the other's
// Release, which counts the token as its, so that an atomic count of the
// holders never passes one). forgetfulServe serves a waiter without
// counting its weight: the served goroutine holds the token while the
// count says nobody does, so the other's second Acquire takes it too, and
// the served goroutine's Release drives the count below zero (SC finding:
// the search reaches "released more than held" first).
package weightedsem

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// waiter is a queued Acquire: its weight and the channel its server
// closes.
type waiter struct {
	n     int64
	ready chan struct{}
}

// weighted is the semaphore; forgetful marks the broken Release.
type weighted struct {
	size, cur int64
	mu        sync.Mutex
	waiters   list.List
	forgetful bool
}

func (s *weighted) acquire(n int64) {
	s.mu.Lock()
	if s.size-s.cur >= n && s.waiters.Len() == 0 {
		s.cur += n
		s.mu.Unlock()
		return
	}
	ready := make(chan struct{})
	s.waiters.PushBack(waiter{n: n, ready: ready})
	s.mu.Unlock()
	<-ready
}

func (s *weighted) release(n int64) {
	s.mu.Lock()
	s.cur -= n
	if s.cur < 0 {
		s.mu.Unlock()
		panic("released more than held") // want `^SC: system forgetfulServe is wrong even under sequential consistency: the panic is reached here`
	}
	for {
		front := s.waiters.Front()
		if front == nil {
			break
		}
		w := front.Value.(waiter)
		if s.size-s.cur < w.n {
			break // the front does not fit: the others wait behind it
		}
		if !s.forgetful {
			s.cur += w.n
		}
		s.waiters.Remove(front)
		close(w.ready)
	}
	s.mu.Unlock()
}

// hold takes the token, checks that nobody else holds it, and gives it
// back.
func hold(s *weighted, holders *atomic.Int32) {
	s.acquire(1)
	if holders.Add(1) > 1 {
		panic("two holders of one token")
	}
	holders.Add(-1)
	s.release(1)
}

//fencecheck:system
func oneToken() {
	s := &weighted{size: 1}
	var holders atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		hold(s, &holders)
		hold(s, &holders)
		wg.Done()
	}()
	go func() {
		hold(s, &holders)
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func forgetfulServe() {
	s := &weighted{size: 1, forgetful: true}
	var holders atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		hold(s, &holders)
		hold(s, &holders)
		wg.Done()
	}()
	go func() {
		hold(s, &holders)
		wg.Done()
	}()
	wg.Wait()
}
