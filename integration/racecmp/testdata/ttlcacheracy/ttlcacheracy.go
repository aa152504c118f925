// Package ttlcacheracy is a cache whose items carry an expiry in nanoseconds,
// 0 for never, in the style of patrickmn/go-cache: Set computes the
// expiry from time.Now only for a positive lifetime, and Get reads the
// item without the cache's lock.
//
// Expected: racy.
package ttlcacheracy

import (
	"sync"
	"time"
)

type item struct {
	v   int
	exp int64
}

type cache struct {
	ttl   time.Duration
	mu    sync.RWMutex
	items map[string]item
}

func (c *cache) set(k string, v int) {
	var exp int64
	if c.ttl > 0 {
		exp = time.Now().Add(c.ttl).UnixNano()
	}
	c.mu.Lock()
	c.items[k] = item{v: v, exp: exp}
	c.mu.Unlock()
}

func (c *cache) get(k string) (int, bool) {
	it, ok := c.items[k]
	if !ok || it.exp > 0 && time.Now().UnixNano() > it.exp {
		return 0, false
	}
	return it.v, true
}

// system: two writers and a reader of a cache without a lifetime.
//
//fencecheck:system
func system() {
	c := &cache{items: map[string]item{}}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { c.set("a", 1); wg.Done() }()
	go func() { c.set("b", 2); wg.Done() }()
	go func() { _, _ = c.get("a"); wg.Done() }()
	wg.Wait()
	if v, ok := c.get("b"); !ok || v != 2 {
		panic("lost b")
	}
}
