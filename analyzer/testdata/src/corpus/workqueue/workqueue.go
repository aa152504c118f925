// Package workqueue follows k8s.io/client-go/util/workqueue's Type: a
// FIFO of items (a slice popped with q.queue = q.queue[1:]) beside a dirty
// set (items added and not yet taken) and a processing set (items taken
// and not yet done), all under a sync.Cond's lock. Add marks an item dirty
// and queues it unless a worker is processing it; Get waits for an item or
// the shutdown, pops it and moves it from dirty to processing; Done takes
// it out of processing and queues it again when it was added meanwhile.
// After ShutDown, Get still hands out what is queued, and reports the
// shutdown once the queue is empty.
//
// Expected, by hand: addGetDone is correct and race-free (every access
// holds the lock; an item added again while it is processed is queued by
// Done, so the worker, which stops only on an empty queue after the
// shutdown, leaves nothing dirty). The mutant doneForgets drops the
// requeue from Done: an item added again while the worker processes it
// stays dirty for ever (one SC finding, at the check).
package workqueue

import "sync"

type empty struct{}

type set map[int]empty

// Type is a work queue of ints.
type Type struct {
	queue        []int
	dirty        set
	processing   set
	cond         *sync.Cond
	shuttingDown bool
	forget       bool // the mutant's Done: no requeue
}

// New makes an empty queue.
func New() *Type {
	return &Type{dirty: set{}, processing: set{}, cond: sync.NewCond(&sync.Mutex{})}
}

// Add marks item as needing processing.
func (q *Type) Add(item int) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.dirty[item] = empty{}
	if _, ok := q.processing[item]; ok {
		return
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
}

// Get blocks until it can return an item to process; shutdown is true
// once the queue is shut down and empty.
func (q *Type) Get() (item int, shutdown bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return 0, true
	}
	item = q.queue[0]
	q.queue = q.queue[1:]
	q.processing[item] = empty{}
	delete(q.dirty, item)
	return item, false
}

// Done marks item as processed; if it was added again meanwhile, it is
// queued again.
func (q *Type) Done(item int) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok && !q.forget {
		q.queue = append(q.queue, item)
		q.cond.Signal()
	}
}

// ShutDown makes Get report the shutdown once the queue is empty.
func (q *Type) ShutDown() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.shuttingDown = true
	q.cond.Broadcast()
}

// leftDirty reports whether an item is still waiting to be processed.
func (q *Type) leftDirty() bool {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	return len(q.dirty) != 0
}

// run adds 1, 2 and 1 again from a producer while a worker processes
// items until the shutdown, which comes after the producer is done.
func run(q *Type) {
	var producer, worker sync.WaitGroup
	producer.Add(1)
	worker.Add(1)
	go func() {
		q.Add(1)
		q.Add(2)
		q.Add(1)
		producer.Done()
	}()
	go func() {
		for {
			item, shutdown := q.Get()
			if shutdown {
				break
			}
			q.Done(item)
		}
		worker.Done()
	}()
	producer.Wait()
	q.ShutDown()
	worker.Wait()
}

//fencecheck:system
func addGetDone() {
	q := New()
	run(q)
	if q.leftDirty() {
		panic("an added item was never processed")
	}
}

//fencecheck:system
func doneForgets() {
	q := New()
	q.forget = true
	run(q)
	if q.leftDirty() {
		panic("an added item was never processed") // want `^SC: system doneForgets is wrong even under sequential consistency: the panic is reached here`
	}
}
