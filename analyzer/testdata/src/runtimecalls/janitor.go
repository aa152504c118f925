package runtimecalls

import (
	"runtime"
	"sync"
	"time"
)

// A cache with a janitor, in the style of patrickmn/go-cache: a goroutine
// that makes its own ticker deletes expired items on every tick, and a
// finalizer on the handle would stop it (Go may never run it).

type janItem struct {
	val int
	exp int64
}

type janCache struct {
	mu    sync.Mutex
	items map[string]janItem
	stop  chan bool
}

type JanHandle struct{ *janCache }

func (c *janCache) deleteExpired() {
	now := time.Now().UnixNano()
	c.mu.Lock()
	for k, it := range c.items {
		if it.exp > 0 && now > it.exp {
			delete(c.items, k)
		}
	}
	c.mu.Unlock()
}

func (c *janCache) janitor() {
	t := time.NewTicker(time.Minute)
	for {
		select {
		case <-t.C:
			c.deleteExpired()
		case <-c.stop:
			t.Stop()
			return
		}
	}
}

func stopJanitor(h *JanHandle) { h.stop <- true }

func newJanCache() *JanHandle {
	c := &janCache{items: map[string]janItem{}, stop: make(chan bool)}
	h := &JanHandle{c}
	go c.janitor()
	runtime.SetFinalizer(h, stopJanitor)
	return h
}

func (c *janCache) put(k string, v int, d time.Duration) {
	var e int64
	if d > 0 {
		e = time.Now().Add(d).UnixNano()
	}
	c.mu.Lock()
	c.items[k] = janItem{val: v, exp: e}
	c.mu.Unlock()
}

func (c *janCache) has(k string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.items[k]
	return ok
}

// janitorKeepsForever: an item without expiry survives the janitor.
//
//fencecheck:system
func janitorKeepsForever() {
	h := newJanCache()
	done := make(chan bool)
	go func() { h.put("a", 1, 0); done <- true }()
	<-done
	if !h.has("a") {
		panic("the janitor deleted an item without expiry")
	}
}

// janitorMayExpire: a minute may pass, and the janitor delete the item.
//
//fencecheck:system
func janitorMayExpire() {
	h := newJanCache()
	done := make(chan bool)
	go func() { h.put("a", 1, time.Minute); done <- true }()
	<-done
	if !h.has("a") {
		panic("expired") // want `^SC: system janitorMayExpire is wrong even under sequential consistency`
	}
}

// janitorWaitGroup: the constructor starts the janitor before the system
// function stores the handle into the variable its goroutines capture and
// counts them on a WaitGroup; no goroutine started so far can reach that
// variable, so the set-up goes on, and a planted check that the item is
// gone is found reachable only when it is.
//
//fencecheck:system
func janitorWaitGroup() {
	h := newJanCache()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { h.put("a", 1, 0); wg.Done() }()
	go func() { _ = h.has("a"); wg.Done() }()
	wg.Wait()
	if h.has("a") {
		panic("kept") // want `^SC: system janitorWaitGroup is wrong even under sequential consistency`
	}
}
