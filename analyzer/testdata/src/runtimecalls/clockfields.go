package runtimecalls

import (
	"sync"
	"time"
)

// Durations a goroutine loads from memory, in the style of
// eapache/go-resiliency's breaker: the error count resets once the
// timeout, a field, has passed since the last error.

type errWindow struct {
	mu      sync.Mutex
	timeout time.Duration
	last    time.Time
	errs    int
}

func (w *errWindow) fail() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.errs > 0 && time.Now().After(w.last.Add(w.timeout)) {
		w.errs = 0
	}
	w.errs++
	w.last = time.Now()
}

// stale reports whether the timeout has passed since the last error.
func (w *errWindow) stale() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errs > 0 && time.Since(w.last) > w.timeout
}

// windowErrors counts two errors: at least one is counted whatever the
// time between them.
//
//fencecheck:system
func windowErrors() {
	w := &errWindow{timeout: time.Minute}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { w.fail(); wg.Done() }()
	go func() { w.fail(); wg.Done() }()
	wg.Wait()
	if w.errs < 1 || w.errs > 2 {
		panic("miscounted")
	}
}

// windowErrorsBoth expects both errors counted: a minute may pass between
// them, and the count resets.
//
//fencecheck:system
func windowErrorsBoth() {
	w := &errWindow{timeout: time.Minute}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { w.fail(); wg.Done() }()
	go func() { w.fail(); wg.Done() }()
	wg.Wait()
	if w.errs != 2 {
		panic("reset") // want `^SC: system windowErrorsBoth is wrong even under sequential consistency`
	}
}

// windowFresh checks right after an error that it is not stale: no time
// need have passed, but it may have.
//
//fencecheck:system
func windowFresh() {
	w := &errWindow{timeout: time.Minute}
	done := make(chan struct{})
	go func() { w.fail(); close(done) }()
	<-done
	if w.stale() {
		panic("stale at once") // want `^SC: system windowFresh is wrong even under sequential consistency`
	}
}

// windowNeverStaleWithoutErrors: stale needs an error first.
//
//fencecheck:system
func windowNeverStaleWithoutErrors() {
	w := &errWindow{timeout: time.Minute}
	done := make(chan struct{})
	go func() { _ = w.stale(); close(done) }()
	<-done
	if w.stale() {
		panic("stale without errors")
	}
}

// heartbeats keeps four readings a worker takes in a loop: each can be
// later than the one before, so expecting otherwise is wrong.
//
//fencecheck:system
func heartbeats() {
	var mu sync.Mutex
	var beats [4]time.Time
	done := make(chan struct{})
	go func() {
		for i := range 4 {
			now := time.Now()
			mu.Lock()
			beats[i] = now
			mu.Unlock()
		}
		close(done)
	}()
	<-done
	if beats[0].Before(beats[1]) && beats[1].Before(beats[2]) && beats[2].Before(beats[3]) {
		panic("four distinct readings") // want `^SC: system heartbeats is wrong even under sequential consistency`
	}
}

// A cache whose entries keep their deadline, time.Now().Add(ttl), in the
// style of TTL caches (patrickmn/go-cache's Item.Expiration as a Time).

type ttlEntry struct {
	val int
	exp time.Time
}

type ttlCache struct {
	mu    sync.Mutex
	items map[string]ttlEntry
}

func (c *ttlCache) set(k string, v int) {
	c.mu.Lock()
	c.items[k] = ttlEntry{val: v, exp: time.Now().Add(time.Minute)}
	c.mu.Unlock()
}

func (c *ttlCache) get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok || time.Now().After(e.exp) {
		return 0, false
	}
	return e.val, true
}

// ttlGet reads what was set, or nothing once the minute has passed.
//
//fencecheck:system
func ttlGet() {
	c := &ttlCache{items: map[string]ttlEntry{}}
	done := make(chan struct{})
	go func() { c.set("a", 1); close(done) }()
	<-done
	if v, ok := c.get("a"); ok && v != 1 {
		panic("wrong value")
	}
}

// ttlGetAlways expects the entry still there: a minute may have passed.
//
//fencecheck:system
func ttlGetAlways() {
	c := &ttlCache{items: map[string]ttlEntry{}}
	done := make(chan struct{})
	go func() { c.set("a", 1); close(done) }()
	<-done
	if _, ok := c.get("a"); !ok {
		panic("expired") // want `^SC: system ttlGetAlways is wrong even under sequential consistency`
	}
}
