// Package mpsc is a multi-producer, single-consumer lock-free queue in
// the manner of github.com/asynkron/protoactor-go's internal/queue/mpsc
// (Vyukov's non-intrusive node-based queue): producers swap themselves in
// as the head and then link the previous head to their node; the one
// consumer follows the links from a stub node. Push may be called from
// any goroutine; Pop and Empty only from the consumer.
package mpsc

import "sync/atomic"

type node struct {
	next atomic.Pointer[node]
	val  any
}

// Queue is the queue; New makes one.
type Queue struct {
	head atomic.Pointer[node]
	tail *node
}

// New returns an empty queue, whose head and tail are a stub node.
func New() *Queue {
	q := &Queue{}
	stub := &node{}
	q.head.Store(stub)
	q.tail = stub
	return q
}

// Push adds x at the back. Any goroutine may push.
func (q *Queue) Push(x any) {
	n := &node{val: x}
	prev := q.head.Swap(n) // the producers agree on an order here
	prev.next.Store(n)     // and publish the node to the consumer
}

// Pop removes and returns the front value, or nil when the queue is
// empty (or a push is half done). Only the consumer pops.
func (q *Queue) Pop() any {
	tail := q.tail
	next := tail.next.Load()
	if next == nil {
		return nil
	}
	q.tail = next
	v := next.val
	next.val = nil
	return v
}

// Empty reports whether Pop would return nil. Only the consumer calls it.
func (q *Queue) Empty() bool {
	return q.tail.next.Load() == nil
}
