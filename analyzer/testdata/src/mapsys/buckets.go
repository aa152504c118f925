package mapsys

import "sync"

// Buckets of entries in the style of hashicorp/golang-lru's expirable
// cache: 100 buckets, each a struct holding a map, and the bucket an add
// fills chosen by a counter kept beside them, so which map an operation
// reaches is known only at run time.

const numBuckets = 100

type bucket struct {
	entries map[int]int
}

type expiring struct {
	mu      sync.Mutex
	buckets []bucket
	next    uint8
}

func newExpiring() *expiring {
	e := &expiring{buckets: make([]bucket, numBuckets)}
	for i := range numBuckets {
		e.buckets[i] = bucket{entries: make(map[int]int)}
	}
	return e
}

// add puts k in the bucket before the counter's and moves the counter on.
func (e *expiring) add(k, v int) {
	e.mu.Lock()
	id := (numBuckets + e.next - 1) % numBuckets
	e.buckets[id].entries[k] = v
	e.next = (e.next + 1) % numBuckets
	e.mu.Unlock()
}

// addUnlocked forgets the lock.
func (e *expiring) addUnlocked(k, v int) {
	id := (numBuckets + e.next - 1) % numBuckets // want `^race: go@\d+\(i=\d\) loads e.next here while go@\d+\(i=\d\) stores e.next`
	e.buckets[id].entries[k] = v                 // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores bucket.entries\)`
	e.next = (e.next + 1) % numBuckets
}

//fencecheck:system
func bucketAdds() {
	e := newExpiring()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.add(i, i)
		}()
	}
	wg.Wait()
	if len(e.buckets[numBuckets-1].entries) != 1 || len(e.buckets[0].entries) != 1 {
		panic("an entry went to another bucket")
	}
}

//fencecheck:system
func bucketAddsUnlocked() {
	e := newExpiring()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.addUnlocked(i, i)
		}()
	}
	wg.Wait()
}

// bucketReplaced: a goroutine swaps in a new map for one bucket before
// another fills buckets chosen by its loop, so the fill reaches the new
// map, as it does in Go.
//
//fencecheck:system
func bucketReplaced() {
	e := newExpiring()
	first := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		e.mu.Lock()
		e.buckets[5].entries = map[int]int{}
		e.mu.Unlock()
		close(first)
	}()
	go func() {
		defer wg.Done()
		<-first
		for k := 4; k < 6; k++ {
			e.mu.Lock()
			e.buckets[k].entries[k] = 1
			e.mu.Unlock()
		}
	}()
	wg.Wait()
	if e.buckets[5].entries[5] != 1 {
		panic("the fill went to the old map")
	}
}

// bucketDropped: the goroutine leaves a nil map in a bucket, and the fill
// writes to it.
//
//fencecheck:system
func bucketDropped() {
	e := newExpiring()
	first := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		e.mu.Lock()
		e.buckets[5].entries = nil
		e.mu.Unlock()
		close(first)
	}()
	go func() {
		defer wg.Done()
		<-first
		for k := 4; k < 6; k++ {
			e.mu.Lock()
			e.buckets[k].entries[k] = 1 // want `^SC: system bucketDropped is wrong even under sequential consistency: the bad state assignment to entry in nil map`
			e.mu.Unlock()
		}
	}()
	wg.Wait()
}

// bucketReplacedUnlocked swaps the map without the lock the fill holds.
//
//fencecheck:system
func bucketReplacedUnlocked() {
	e := newExpiring()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		e.buckets[5].entries = map[int]int{} // want `^race: go@\d+ stores e.buckets\[5\].entries here while go@\d+ loads e.buckets\[5\].entries`
	}()
	go func() {
		defer wg.Done()
		for k := 4; k < 6; k++ {
			e.mu.Lock()
			e.buckets[k].entries[k] = 1
			e.mu.Unlock()
		}
	}()
	wg.Wait()
}
