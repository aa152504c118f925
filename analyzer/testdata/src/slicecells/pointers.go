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

// snapshotWhileGrowing: main reads the first subscriber of a snapshot
// while a goroutine appends to the slice the snapshot shares: the append
// writes past the snapshot's length, in place, or reads the elements to
// move them; it never writes snap[0], so nothing races. (A read and a
// write of one append were one site of the race check: the append's read
// of snap[0] lent its conflict to the write it may make elsewhere.)
//
//fencecheck:system
func snapshotWhileGrowing() {
	var subs []*subscriber
	subs = append(subs, &subscriber{id: 1})
	snap := subs
	done := make(chan bool)
	go func() {
		subs = append(subs, &subscriber{id: 2})
		done <- true
	}()
	first := snap[0]
	<-done
	if first.id != 1 {
		panic("the snapshot changed")
	}
}

// snapshotWhileGrowingWrite: main writes the snapshot's first element
// while the goroutine's growth may read it to move it: a race.
//
//fencecheck:system
func snapshotWhileGrowingWrite() {
	var subs []*subscriber
	subs = append(subs, &subscriber{id: 1})
	snap := subs
	done := make(chan bool)
	go func() {
		subs = append(subs, &subscriber{id: 2}) // want `^race: `
		done <- true
	}()
	snap[0] = &subscriber{id: 3}
	<-done
}
