package blocking

import "sync"

// Conds kept by value in a struct, as queues keep theirs: L set to the
// struct's mutex, or the Cond NewCond made copied into the field.

type fieldQueue struct {
	mu    sync.Mutex
	cond  sync.Cond
	count int32
}

func newFieldQueue() *fieldQueue {
	q := &fieldQueue{}
	q.cond.L = &q.mu
	return q
}

func newFieldQueueCopied() *fieldQueue {
	q := &fieldQueue{}
	q.cond = *sync.NewCond(&q.mu)
	return q
}

func (q *fieldQueue) put() {
	q.mu.Lock()
	q.count++
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *fieldQueue) putSilently() {
	q.mu.Lock()
	q.count++
	q.mu.Unlock()
}

func (q *fieldQueue) take() {
	q.mu.Lock()
	for q.count == 0 {
		q.cond.Wait() // want `^deadlock: go@\d+ and main block forever in q\.cond\.Wait\(\) and <-done \(system condFieldSilent\)`
	}
	q.count--
	q.mu.Unlock()
}

// condField: a producer signals the consumer through the field's Cond.
//
//fencecheck:system
func condField() {
	q := newFieldQueue()
	done := make(chan bool)
	go q.put()
	go func() {
		q.take()
		done <- true
	}()
	<-done
}

// condFieldCopied: the same with the Cond NewCond made, copied.
//
//fencecheck:system
func condFieldCopied() {
	q := newFieldQueueCopied()
	done := make(chan bool)
	go q.put()
	go func() {
		q.take()
		done <- true
	}()
	<-done
}

// condFieldSilent: the producer forgets to signal.
//
//fencecheck:system
func condFieldSilent() {
	q := newFieldQueue()
	done := make(chan bool)
	go q.putSilently()
	go func() {
		q.take()
		done <- true
	}()
	<-done
}
