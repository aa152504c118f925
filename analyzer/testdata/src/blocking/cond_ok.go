package blocking

import "sync"

type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items int //fencecheck:range 0..1
}

// condQueue waits, under the lock, in a loop on the condition, for a
// producer that signals under the lock: correct.
//
//fencecheck:system
func condQueue() {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	go func() {
		q.mu.Lock()
		q.items++
		q.cond.Signal()
		q.mu.Unlock()
	}()
	q.mu.Lock()
	for q.items == 0 {
		q.cond.Wait()
	}
	q.mu.Unlock()
}

// condAnon makes its Cond over an anonymous mutex, which once ended in an
// internal error, and signals with no waiter: correct.
//
//fencecheck:system
func condAnon() {
	c := sync.NewCond(&sync.Mutex{})
	go func() {
		c.L.Lock()
		c.Signal()
		c.L.Unlock()
	}()
}
