package blocking

import "sync"

// A sync.RWMutex prefers a waiting writer: a goroutine that read-locks
// twice (a Sum that calls Get, both taking the read lock) deadlocks once a
// writer waits between its two RLocks.

type registry struct {
	mu   sync.RWMutex
	vals [2]int
}

func (r *registry) get(i int) int {
	r.mu.RLock() // want `^deadlock: go@\d+, go@\d+ and main block forever in r.mu.RLock\(\), r.mu.Lock\(\) and wg.Wait\(\)`
	defer r.mu.RUnlock()
	return r.vals[i]
}

func (r *registry) sum() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.get(0) + r.get(1)
}

func (r *registry) sumOnce() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.vals[0] + r.vals[1]
}

// recursiveRead deadlocks: the writer waits for the first read lock, the
// second waits for the writer.
//
//fencecheck:system
func recursiveRead() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = r.sum() }()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		r.vals[0]++
		r.mu.Unlock()
	}()
	wg.Wait()
}

// singleRead is recursiveRead fixed: one read lock.
//
//fencecheck:system
func singleRead() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = r.sumOnce() }()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		r.vals[0]++
		r.mu.Unlock()
	}()
	wg.Wait()
}
