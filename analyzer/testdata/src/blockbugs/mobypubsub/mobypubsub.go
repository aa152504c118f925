// Package mobypubsub is written in the style of Docker/moby's
// pubsub.Publisher, which fans events out to subscriber channels; Evict
// removes a subscriber and closes its channel. The bug is a send on a
// closed channel: Publish takes the subscriber's channel under the read
// lock but sends after it unlocks, so Evict can close the channel in
// between, and the send panics.
package mobypubsub

import "sync"

// Publisher publishes events to one subscriber.
type Publisher struct {
	m       sync.RWMutex
	sub     chan int
	evicted bool
}

// Publish sends v to the subscriber.
func (p *Publisher) Publish(v int) {
	p.m.RLock()
	sub, live := p.sub, !p.evicted
	p.m.RUnlock()
	if live {
		sub <- v // want `^SC: system eventsUnsubscribe is wrong even under sequential consistency: the run-time panic "panic: send on closed channel"`
	}
}

// publishFixed sends under the read lock, which Evict's write lock
// excludes; the subscriber's buffer has room.
func (p *Publisher) publishFixed(v int) {
	p.m.RLock()
	defer p.m.RUnlock()
	if !p.evicted {
		p.sub <- v
	}
}

// Evict removes the subscriber and closes its channel.
func (p *Publisher) Evict() {
	p.m.Lock()
	defer p.m.Unlock()
	p.evicted = true
	close(p.sub)
}

// eventsUnsubscribe: a container event is published while its subscriber
// (`docker events`) goes away.
//
//fencecheck:system
func eventsUnsubscribe() {
	p := &Publisher{sub: make(chan int, 1)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.Publish(1) }()
	p.Evict()
	wg.Wait()
}

// eventsUnsubscribeFixed publishes with publishFixed.
//
//fencecheck:system
func eventsUnsubscribeFixed() {
	p := &Publisher{sub: make(chan int, 1)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.publishFixed(1) }()
	p.Evict()
	wg.Wait()
}
