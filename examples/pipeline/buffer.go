package pipeline

import "sync"

// buffer is a bounded buffer of one slot on one condition variable, as
// textbooks write it before they meet its bug: producers and consumers
// wait on the same Cond, so a Signal meant for a consumer can wake a
// producer, which goes back to waiting, and the consumer sleeps on.
type buffer struct {
	mu    sync.Mutex
	cond  *sync.Cond
	full  bool
	value int32
	// broadcast wakes every waiter instead of one: the fix.
	broadcast bool
}

func (b *buffer) wake() {
	if b.broadcast {
		b.cond.Broadcast()
	} else {
		b.cond.Signal()
	}
}

func (b *buffer) put(v int32) {
	b.mu.Lock()
	for b.full {
		b.cond.Wait()
	}
	b.value, b.full = v, true
	b.wake()
	b.mu.Unlock()
}

func (b *buffer) take() int32 {
	b.mu.Lock()
	for !b.full {
		b.cond.Wait()
	}
	v := b.value
	b.full = false
	b.wake()
	b.mu.Unlock()
	return v
}

// run has a producer of two values and two consumers of one each.
func (b *buffer) run() {
	b.cond = sync.NewCond(&b.mu)
	var wg sync.WaitGroup
	var got [2]int32
	wg.Add(3)
	go func() { defer wg.Done(); b.put(1); b.put(2) }()
	for i := range 2 {
		go func() { defer wg.Done(); got[i] = b.take() }()
	}
	wg.Wait()
	if got[0]+got[1] != 3 {
		panic("lost a value")
	}
}

//fencecheck:system
func bufferSystem() {
	b := &buffer{}
	b.run()
}

// bufferFixedSystem broadcasts, so the waiter that can go on always wakes.
//
//fencecheck:system
func bufferFixedSystem() {
	b := &buffer{broadcast: true}
	b.run()
}
