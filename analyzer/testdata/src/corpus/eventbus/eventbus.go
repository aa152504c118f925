// Package eventbus follows github.com/asaskevich/EventBus: the handlers
// of each topic are kept in a map of slices of *eventHandler under the
// bus's lock; Subscribe appends a handler to its topic's slice, and
// Publish takes the topic's handlers under the lock, removes the ones
// subscribed once (SubscribeOnce) and calls them after it.
//
// Expected, by hand: subscribeAndPublish is correct and race-free (every
// access to the map and its slices holds the lock; the publisher calls
// each handler at most once). The mutant unlockedHasCallback asks whether
// a topic has handlers without the lock, as a HasCallback helper might:
// its lookup races with Subscribe's assignment (one finding, on the map).
package eventbus

import "sync"

// eventHandler is a subscribed handler: what it adds to the published
// value, and whether it runs once.
type eventHandler struct {
	add      int32
	flagOnce bool
}

// EventBus keeps the handlers of each topic.
type EventBus struct {
	lock     sync.Mutex
	handlers map[string][]*eventHandler
}

// New makes an empty bus.
func New() *EventBus { return &EventBus{handlers: map[string][]*eventHandler{}} }

// Subscribe adds a handler to the topic's handlers.
func (b *EventBus) Subscribe(topic string, add int32, once bool) {
	b.lock.Lock()
	defer b.lock.Unlock()
	b.handlers[topic] = append(b.handlers[topic], &eventHandler{add: add, flagOnce: once}) // want `^race: go@\d+ stores b.handlers here while go@\d+ loads b.handlers at eventbus.go:\d+:\d+, and nothing orders the two \(system unlockedHasCallback\)`
}

// Publish runs the topic's handlers on arg and returns what they add up
// to; a handler subscribed once is removed first.
func (b *EventBus) Publish(topic string, arg int32) int32 {
	b.lock.Lock()
	hs := b.handlers[topic]
	n := len(hs)
	var sum int32
	for i := 0; i < n; i++ {
		h := hs[i]
		if h.flagOnce {
			delete(b.handlers, topic)
		}
		sum += arg + h.add
	}
	b.lock.Unlock()
	return sum
}

// HasCallback reports whether the topic has handlers, without the lock.
func (b *EventBus) HasCallback(topic string) bool {
	return len(b.handlers[topic]) > 0
}

//fencecheck:system
func subscribeAndPublish() {
	b := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b.Subscribe("tick", 1, true)
		wg.Done()
	}()
	go func() {
		if s := b.Publish("tick", 3); s != 0 && s != 4 {
			panic("a torn handler")
		}
		wg.Done()
	}()
	wg.Wait()
	if s := b.Publish("tick", 1); s != 0 && s != 2 {
		panic("a handler run twice")
	}
}

//fencecheck:system
func unlockedHasCallback() {
	b := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b.Subscribe("tick", 1, false)
		wg.Done()
	}()
	go func() {
		_ = b.HasCallback("tick")
		wg.Done()
	}()
	wg.Wait()
}
