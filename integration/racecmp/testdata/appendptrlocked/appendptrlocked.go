// Package appendptrlocked has two goroutines append pointers to a slice
// field under a lock; the main goroutine then reads the pointers and
// what they point to.
//
// Expected: race-free.
package appendptrlocked

import "sync"

type sub struct{ id int }

type bus struct {
	mu   sync.Mutex
	subs []*sub
}

// system: both appends hold the lock.
//
//fencecheck:system
func system() {
	var b bus
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			b.mu.Lock()
			b.subs = append(b.subs, &sub{id: i})
			b.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	sum := 0
	for _, s := range b.subs {
		sum += s.id
	}
	if sum != 1 {
		panic("lost subscriber")
	}
}
