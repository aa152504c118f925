package blocking

import "sync"

// A queue that locks its Cond's Locker, c.L, and unlocks it by defer: a
// deferred call of an interface method. The index-only range over an array
// of structs holding mutexes copies nothing.

type lockerQueue struct {
	cond  *sync.Cond
	items int
}

func (q *lockerQueue) put() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.items++
	q.cond.Signal()
}

func (q *lockerQueue) take() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for q.items == 0 {
		q.cond.Wait() // want `^deadlock: go@\d+ and main block forever in q.cond.Wait\(\) and wg.Wait\(\) \(system condDeferTwoTakers\)`
	}
	q.items--
}

// condDeferUnlock: the taker waits until the item is there.
//
//fencecheck:system
func condDeferUnlock() {
	q := &lockerQueue{cond: sync.NewCond(&sync.Mutex{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); q.put() }()
	go func() { defer wg.Done(); q.take() }()
	wg.Wait()
	if q.items != 0 {
		panic("item left")
	}
}

// condDeferTwoTakers has two takers for one item: one waits forever.
//
//fencecheck:system
func condDeferTwoTakers() {
	q := &lockerQueue{cond: sync.NewCond(&sync.Mutex{})}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); q.put() }()
	go func() { defer wg.Done(); q.take() }()
	go func() { defer wg.Done(); q.take() }()
	wg.Wait()
}

type lockedCount struct {
	mu sync.Mutex
	n  int
}

// indexRange sums the counts by index: no copy of the mutexes.
//
//fencecheck:system
func indexRange() {
	var counts [2]lockedCount
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		counts[1].mu.Lock()
		counts[1].n++
		counts[1].mu.Unlock()
	}()
	wg.Wait()
	t := 0
	for i := range counts {
		t += counts[i].n
	}
	if t != 1 {
		panic("lost")
	}
}
