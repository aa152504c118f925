// Package maplistsracy keeps subscribers per topic in a map of slices, in
// the style of asaskevich/EventBus's handlers map: Subscribe appends under
// the bus's lock and the count reads the topic's list without it.
//
// Expected: racy.
package maplistsracy

import "sync"

type bus struct {
	mu       sync.Mutex
	handlers map[string][]int
}

func (b *bus) subscribe(topic string, h int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[topic] = append(b.handlers[topic], h)
}

func (b *bus) count(topic string) int {
	return len(b.handlers[topic])
}

// system: two subscribers to one topic, one to another, and a publisher.
//
//fencecheck:system
func system() {
	b := &bus{handlers: map[string][]int{}}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { b.subscribe("a", 1); wg.Done() }()
	go func() { b.subscribe("a", 2); b.subscribe("b", 3); wg.Done() }()
	go func() { _ = b.count("a"); wg.Done() }()
	wg.Wait()
	if b.count("a") != 2 || b.count("b") != 1 {
		panic("lost a subscriber")
	}
}
