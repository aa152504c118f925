// Package fifoqueueracy is fifoqueue (a FIFO in a slice field popped with
// q.items = q.items[1:] under the queue's mutex, as the waiting queue of k8s
// client-go's workqueue is) with its emptiness check moved before the lock:
// the consumer reads the header while the producer appends.
//
// Expected: racy.
package fifoqueueracy

import "sync"

type queue struct {
	mu    sync.Mutex
	items []int
}

func (q *queue) push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
}

func (q *queue) pop() (int, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// system: a producer pushes three values while the consumer pops.
//
//fencecheck:system
func system() {
	q := &queue{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		q.push(1)
		q.push(2)
		q.push(3)
		wg.Done()
	}()
	last := 0
	for range 3 {
		if v, ok := q.pop(); ok {
			if v <= last {
				panic("out of order")
			}
			last = v
		}
	}
	wg.Wait()
}
