package runtimecalls

import (
	"sync"
	"time"
)

// usedEntry keeps when it was last used; the zero Time until then.
type usedEntry struct {
	mu   sync.Mutex
	last time.Time
}

// staleSinceZero: a time never set is year 1, so time.Since saturates
// at the largest Duration and the usedEntry is stale.
//
//fencecheck:system
func staleSinceZero() {
	e := &usedEntry{}
	var wg sync.WaitGroup
	wg.Add(1)
	stale := false
	go func() {
		e.mu.Lock()
		stale = time.Since(e.last) > 5*time.Second && e.last.Add(time.Hour).Before(time.Now())
		e.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if !stale {
		panic("a never-used usedEntry counted as fresh")
	}
}

// staleSinceZeroWrong: the twin that expects the usedEntry to be fresh once
// another goroutine may have used it.
//
//fencecheck:system
func staleSinceZeroWrong() {
	e := &usedEntry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		e.mu.Lock()
		e.last = time.Now()
		e.mu.Unlock()
		wg.Done()
	}()
	stale := false
	go func() {
		e.mu.Lock()
		stale = time.Since(e.last) > 5*time.Second
		e.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if stale {
		panic("stale") // want `^SC: system staleSinceZeroWrong is wrong even under sequential consistency: the panic is reached here`
	}
}
