// Package k8sfifo is written in the style of client-go's cache.FIFO,
// whose Pop waits on a condition variable for an item or for Close. The
// bug is a Signal where a Broadcast is needed: Close wakes the waiters
// with Signal, which wakes one of them, so with two workers popping the
// other sleeps forever (a deadlock of the controller's shutdown).
package k8sfifo

import "sync"

// FIFO is a queue of items that workers pop.
type FIFO struct {
	lock   sync.Mutex
	cond   *sync.Cond
	items  int32
	closed bool
}

// Pop takes an item; it reports false once the queue is closed and empty.
func (f *FIFO) Pop() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	for f.items == 0 {
		if f.closed {
			return false
		}
		f.cond.Wait() // want `^deadlock: go@\d+\(i=\d\) and main block forever in f\.cond\.Wait\(\) and wg\.Wait\(\) \(system shutdown\)$`
	}
	f.items--
	return true
}

// Close closes the queue and wakes a waiter.
func (f *FIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Signal()
}

// closeFixed wakes every waiter.
func (f *FIFO) closeFixed() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// shutdown closes the queue of two idle workers and waits for them.
//
//fencecheck:system
func shutdown() {
	f := &FIFO{}
	f.cond = sync.NewCond(&f.lock)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f.Pop() {
			}
		}()
	}
	f.Close()
	wg.Wait()
}

// shutdownFixed closes with closeFixed.
//
//fencecheck:system
func shutdownFixed() {
	f := &FIFO{}
	f.cond = sync.NewCond(&f.lock)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f.Pop() {
			}
		}()
	}
	f.closeFixed()
	wg.Wait()
}
