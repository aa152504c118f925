package values

import "sync"

// Arrays copied by value and indexed at run time: a range over an array
// field (a copy of it) and the elements of an array a function returns.

type buckets struct {
	mu     sync.Mutex
	counts [3]int
}

// bucketTotal sums a copy of the buckets that two goroutines incremented
// under the lock: 2.
//
//fencecheck:system
func bucketTotal() {
	s := &buckets{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			s.mu.Lock()
			s.counts[i]++
			s.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range s.counts {
		total += c
	}
	if total != 2 {
		panic("lost increment")
	}
}

// bucketTotalWrong expects one more.
//
//fencecheck:system
func bucketTotalWrong() {
	s := &buckets{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s.mu.Lock()
		s.counts[2]++
		s.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	total := 0
	for _, c := range s.counts {
		total += c
	}
	if total != 2 {
		panic("lost increment") // want `^SC: system bucketTotalWrong is wrong even under sequential consistency`
	}
}

func weights() [3]int { return [3]int{5, 6, 7} }

// weightPastEnd reads one element past the end of an array value: Go's
// index out of range.
//
//fencecheck:system
func weightPastEnd() {
	var n int
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 4; i++ {
			n += weights()[i] // want `^SC: system weightPastEnd is wrong even under sequential consistency: the bad state index out of range`
		}
	}()
	<-done
	_ = n
}

// Arrays of pointers and of structs copied and indexed at run time: the
// shards of a striped counter, each a pointer, and a table of routes, each
// a struct holding a pointer and a weight.

type stripe struct {
	mu sync.Mutex
	n  int
}

type striped struct{ stripes [2]*stripe }

type route struct {
	to     *stripe
	weight int
}

// stripedTotal totals the stripes through a copy of the array while two
// goroutines add under each stripe's lock: 2 at most.
//
//fencecheck:system
func stripedTotal() {
	c := &striped{}
	for i := range c.stripes {
		c.stripes[i] = &stripe{}
	}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := c.stripes[i]
			s.mu.Lock()
			s.n++
			s.mu.Unlock()
		}()
	}
	total := 0
	for _, s := range c.stripes {
		s.mu.Lock()
		total += s.n
		s.mu.Unlock()
	}
	if total > 2 {
		panic("counted twice")
	}
	wg.Wait()
}

// stripedTotalUnlocked reads each stripe without its lock.
//
//fencecheck:system
func stripedTotalUnlocked() {
	c := &striped{}
	for i := range c.stripes {
		c.stripes[i] = &stripe{}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := c.stripes[1]
		s.mu.Lock()
		s.n++ // want `^race: go@\d+ stores s.n here while main loads s.n`
		s.mu.Unlock()
	}()
	total := 0
	for _, s := range c.stripes {
		total += s.n
	}
	_ = total
	wg.Wait()
}

// routeWeights follows the route a goroutine picks at run time, from a
// copy of the table: the weight of route 1 is 3, so 4 is never seen.
//
//fencecheck:system
func routeWeights() {
	a, b := &stripe{}, &stripe{}
	table := [2]route{{a, 1}, {b, 3}}
	var pick int
	done := make(chan struct{})
	go func() {
		pick = 1
		close(done)
	}()
	<-done
	r := table[pick]
	r.to.n += r.weight
	if b.n == 4 || a.n != 0 {
		panic("wrong route")
	}
	if r.to.n == 3 {
		panic("route 1 taken") // want `^SC: system routeWeights is wrong even under sequential consistency: the panic is reached here`
	}
}
