package rtcalls

import "sync"

// A deferred function that recovers, records the panic under a mutex and
// panics again, over code with one place that may panic (oneSite) and
// with six (sixSites). Its steps are lowered once however many places
// reach it.

type tally struct {
	mu     sync.Mutex
	failed int
	table  []int
}

func (t *tally) guard() {
	if e := recover(); e != nil {
		t.mu.Lock()
		t.failed++ // marker: deferred body
		t.mu.Unlock()
		panic(e)
	}
}

//fencecheck:system
func oneSite() {
	t := &tally{table: []int{1, 2, 3}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer t.guard()
		t.mu.Lock()
		i := t.failed
		t.mu.Unlock()
		_ = t.table[i]
	}()
	wg.Wait()
}

//fencecheck:system
func sixSites() {
	t := &tally{table: []int{1, 2, 3}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer t.guard()
		t.mu.Lock()
		i := t.failed
		t.mu.Unlock()
		_ = t.table[i] + t.table[i+1] + t.table[i+2] + t.table[2*i] + t.table[3*i] + t.table[4*i]
	}()
	wg.Wait()
}
