// Package mpscqueue is an actor mailbox in the manner of
// github.com/asynkron/protoactor-go, whose mailbox keeps its user
// messages in the lock-free queue of its internal/queue/mpsc package:
// senders push from any goroutine, and the one goroutine that runs the
// actor pops. The queue is the internal package beside this one, read
// from source, and the systems here only call it.
//
// Expected, by hand: mailbox is correct and race-free: two senders push,
// the actor's goroutine pops until it has both messages (yielding while
// a push is half done), and each message is received once; the atomic
// Store that links a node publishes its value to the Load that follows
// the link. The mutant twoConsumers breaks the queue's contract by
// popping from two goroutines: both load the consumer's plain tail and
// advance it, so the tail races, and so does the value each takes from
// the node and clears (both reported at the system, with the place in
// package mpsc), and both can take the same message (SC).
package mpscqueue

import (
	"runtime"
	"sync"

	"corpus/mpscqueue/internal/queue/mpsc"
)

//fencecheck:system
func mailbox() {
	q := mpsc.New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		q.Push(1)
	}()
	go func() {
		defer wg.Done()
		q.Push(2)
	}()
	sum, got := 0, 0
	for got < 2 {
		v := q.Pop()
		if v == nil {
			runtime.Gosched()
			continue
		}
		sum += v.(int)
		got++
	}
	wg.Wait()
	if sum != 3 || !q.Empty() {
		panic("a message was lost or received twice")
	}
}

//fencecheck:system
func twoConsumers() { // want `^race: go@\d+\(i=\d\) loads q\.tail here while go@\d+\(i=\d\) stores q\.tail at mpsc\.go:\d+:\d+, and nothing orders the two \(system twoConsumers; at mpsc\.go:\d+:\d+ in package corpus/mpscqueue/internal/queue/mpsc\)` `^race: go@\d+\(i=\d\) loads n\.val here while go@\d+\(i=\d\) stores n\.val at mpsc\.go:\d+:\d+, and nothing orders the two \(system twoConsumers; at mpsc\.go:\d+:\d+ in package corpus/mpscqueue/internal/queue/mpsc\)`
	q := mpsc.New()
	q.Push(1)
	q.Push(2)
	var got [2]int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if v := q.Pop(); v != nil {
				got[i] = v.(int)
			}
		}()
	}
	wg.Wait()
	if got[0] == got[1] {
		panic("one message received twice") // want `^SC: system twoConsumers is wrong even under sequential consistency: the panic is reached here`
	}
}
