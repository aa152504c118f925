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
