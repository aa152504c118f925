// Package appendnil has two goroutines append to a nil slice kept in a
// struct field, one of them without the lock: the stores and loads of the
// field's slice header race, and so do the write of the first element and
// the copy of it when the other append grows the slice.
//
// Expected: racy.
package appendnil

import "sync"

type rec struct {
	mu   sync.Mutex
	nums []int
}

// system: the first goroutine appends without taking the lock.
//
//fencecheck:system
func system() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.nums = append(r.nums, 1)
		wg.Done()
	}()
	go func() {
		r.mu.Lock()
		r.nums = append(r.nums, 2)
		r.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
