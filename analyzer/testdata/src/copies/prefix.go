package copies

import "sync"

// A prefix of the ids, cut to what copy copied: out[:n] with n known only
// at run time is a window of run-time length over out's array.

type reg struct {
	mu  sync.Mutex
	ids []int
}

func (r *reg) add(id int) {
	r.mu.Lock()
	r.ids = append(r.ids, id)
	r.mu.Unlock()
}

// firstTwo returns at most the first two ids.
func (r *reg) firstTwo(lock bool) []int {
	out := make([]int, 2)
	if lock {
		r.mu.Lock()
	}
	n := copy(out, r.ids)
	if lock {
		r.mu.Unlock()
	}
	return out[:n]
}

// firstTwo: the prefix holds the first ids, in order.
//
//fencecheck:system
func firstTwo() {
	r := &reg{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r.add(1)
		r.add(2)
		r.add(3)
		wg.Done()
	}()
	s := r.firstTwo(true)
	for i, v := range s {
		if v != i+1 {
			panic("torn")
		}
	}
	if len(s) > 2 {
		panic("too long")
	}
	wg.Wait()
}

// firstTwoWrong expects both ids, but the list may be taken after one.
//
//fencecheck:system
func firstTwoWrong() {
	r := &reg{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r.add(1)
		r.add(2)
		wg.Done()
	}()
	s := r.firstTwo(true)
	if len(s) == 1 {
		panic("saw one id") // want `^SC: system firstTwoWrong is wrong even under sequential consistency: the panic is reached here`
	}
	wg.Wait()
}

// badBound cuts past the capacity.
//
//fencecheck:system
func badBound() {
	r := &reg{}
	r.add(1)
	done := make(chan bool)
	go func() {
		out := make([]int, 2)
		n := copy(out, r.ids) + 2
		_ = out[:n] // want `^SC: system badBound is wrong even under sequential consistency: the bad state slice bounds out of range is reached here`
		done <- true
	}()
	<-done
}
