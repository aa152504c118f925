package uncomputed

import (
	"sync"
	"time"
)

// entry is a cached value with the time it expires, in nanoseconds, or 0
// for never, as patrickmn/go-cache keeps its items.
type entry struct {
	v   int32
	exp int64
}

// ttlCache computes an expiry only for a positive lifetime: the result of
// time.Now().UnixNano(), which fencecheck does not compute, joins 0.
type ttlCache struct {
	ttl   time.Duration
	mu    sync.Mutex
	items map[string]entry
}

func (c *ttlCache) set(k string, v int32) {
	var exp int64
	if c.ttl > 0 {
		exp = time.Now().Add(c.ttl).UnixNano()
	}
	c.mu.Lock()
	c.items[k] = entry{v: v, exp: exp}
	c.mu.Unlock()
}

func (c *ttlCache) get(k string) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	return e.v, ok && e.exp == 0
}

// neverExpires: a cache without a lifetime never takes the path that
// computes an expiry, so the system is decided.
//
//fencecheck:system
func neverExpires() {
	c := &ttlCache{items: map[string]entry{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.set("a", 1)
		wg.Done()
	}()
	go func() {
		c.set("b", 2)
		wg.Done()
	}()
	wg.Wait()
	if v, ok := c.get("a"); !ok || v != 1 {
		panic("lost a")
	}
}

// neverExpiresWrong: the same, expecting what the other goroutine set.
//
//fencecheck:system
func neverExpiresWrong() {
	c := &ttlCache{items: map[string]entry{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.set("a", 1)
		wg.Done()
	}()
	go func() {
		c.set("b", 2)
		wg.Done()
	}()
	wg.Wait()
	if v, _ := c.get("b"); v != 1 {
		panic("b holds its own value") // want `^SC: system neverExpiresWrong is wrong even under sequential consistency: the panic is reached here`
	}
}

// expires: with a lifetime, every run computes an expiry; the lifetime
// is a field that goroutines only read, so the expiry is the reading
// moved by the set-up's minute, kept in the item (decided).
//
//fencecheck:system
func expires() {
	c := &ttlCache{ttl: time.Minute, items: map[string]entry{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.set("a", 1)
		wg.Done()
	}()
	wg.Wait()
}
