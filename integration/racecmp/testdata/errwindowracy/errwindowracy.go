// Package errwindowracy has an error window in the style of
// eapache/go-resiliency's breaker: the count resets once the timeout, a
// field, has passed since the last error, and a reader asks without the
// lock whether the window is stale.
//
// Expected: racy.
package errwindowracy

import (
	"sync"
	"time"
)

type window struct {
	mu      sync.Mutex
	timeout time.Duration
	last    time.Time
	errs    int
}

func (w *window) fail() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.errs > 0 && time.Now().After(w.last.Add(w.timeout)) {
		w.errs = 0
	}
	w.errs++
	w.last = time.Now()
}

func (w *window) stale() bool {
	return w.errs > 0 && time.Since(w.last) > w.timeout
}

// system: two failures and a reader.
//
//fencecheck:system
func system() {
	w := &window{timeout: time.Minute}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { w.fail(); wg.Done() }()
	go func() { w.fail(); wg.Done() }()
	go func() { _ = w.stale(); wg.Done() }()
	wg.Wait()
	if w.errs < 1 || w.errs > 2 {
		panic("miscounted")
	}
}
