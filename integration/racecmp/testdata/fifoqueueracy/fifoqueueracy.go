// Package fifoqueueracy pops a FIFO kept in a slice field with
// q.items = q.items[1:] under the queue's mutex, after a length check
// made without it, as the waiting queue of
// k8s client-go's workqueue does; a producer pushes while the consumer
// pops, and the slice's array is shared between the two windows.
//
// The consumer checks the length without the lock.
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
