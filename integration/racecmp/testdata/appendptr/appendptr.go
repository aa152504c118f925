// Package appendptr has two goroutines append pointers to a slice field,
// one without the lock: the slice header and the moved pointers race.
//
// Expected: racy.
package appendptr

import "sync"

type sub struct{ id int }

type bus struct {
	mu   sync.Mutex
	subs []*sub
}

// system: the first goroutine appends without taking the lock.
//
//fencecheck:system
func system() {
	var b bus
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b.subs = append(b.subs, &sub{id: 1})
		wg.Done()
	}()
	go func() {
		b.mu.Lock()
		b.subs = append(b.subs, &sub{id: 2})
		b.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
