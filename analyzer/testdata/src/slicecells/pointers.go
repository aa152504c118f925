package slicecells

import "sync"

// A registry of pointers grown by append under a lock, in the style of the
// subscriber lists of event buses and the entry lists of caches: the
// pointers move to the new array as the references they are.

type subscriber struct {
	id int
}

type bus struct {
	mu   sync.Mutex
	subs []*subscriber
}

func (b *bus) subscribe(s *subscriber) {
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
}

// subscribers: both subscribe; the ids add up whatever the order.
//
//fencecheck:system
func subscribers() {
	b := &bus{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			b.subscribe(&subscriber{id: i + 1})
			wg.Done()
		}()
	}
	wg.Wait()
	sum := 0
	for _, s := range b.subs {
		sum += s.id
	}
	if len(b.subs) != 2 || sum != 3 {
		panic("lost subscriber")
	}
}

// subscribersInOrder expects the first goroutine to subscribe first.
//
//fencecheck:system
func subscribersInOrder() {
	b := &bus{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			b.subscribe(&subscriber{id: i + 1})
			wg.Done()
		}()
	}
	wg.Wait()
	if b.subs[0].id != 1 {
		panic("second first") // want `^SC: system subscribersInOrder is wrong even under sequential consistency`
	}
}
