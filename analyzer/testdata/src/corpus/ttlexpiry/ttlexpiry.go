// Package ttlexpiry follows github.com/patrickmn/go-cache with its
// expirations: Set computes an item's expiry from time.Now only for a
// positive lifetime (0 means never), and Get treats an item whose expiry
// has passed as missing, both under the cache's RWMutex.
//
// Expected, by hand: setGet, with a cache whose items never expire, is
// correct and race-free: the path that calls time.Now is never taken, so
// the expiry fencecheck does not compute is never stored, and every map
// access holds the lock. The mutant getWithoutLock reads the item
// without the read lock, as a "fast path" might: the lookup races with
// Set's assignment (one finding, on the map).
package ttlexpiry

import (
	"sync"
	"time"
)

// Item is a cached value and its expiry in nanoseconds (0: never).
type Item struct {
	Object     int32
	Expiration int64
}

// Cache maps keys to items.
type Cache struct {
	defaultExpiration time.Duration
	mu                sync.RWMutex
	items             map[string]Item
}

// New makes a cache whose items live for d (0: for ever).
func New(d time.Duration) *Cache {
	return &Cache{defaultExpiration: d, items: map[string]Item{}}
}

// Set stores x under k.
func (c *Cache) Set(k string, x int32) {
	var e int64
	if d := c.defaultExpiration; d > 0 {
		e = time.Now().Add(d).UnixNano()
	}
	c.mu.Lock()
	c.items[k] = Item{Object: x, Expiration: e} // want `^race: go@\d+ stores c.items here while go@\d+ loads c.items at ttlexpiry.go:\d+:\d+, and nothing orders the two \(system getWithoutLock\)`
	c.mu.Unlock()
}

// Get returns the item of k unless it is missing or expired.
func (c *Cache) Get(k string) (int32, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.get(k)
}

func (c *Cache) get(k string) (int32, bool) {
	item, found := c.items[k]
	if !found {
		return 0, false
	}
	if item.Expiration > 0 && time.Now().UnixNano() > item.Expiration {
		return 0, false
	}
	return item.Object, true
}

//fencecheck:system
func setGet() {
	c := New(0)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.Set("a", 1)
		wg.Done()
	}()
	go func() {
		if v, ok := c.Get("a"); ok && v != 1 {
			panic("a torn item")
		}
		wg.Done()
	}()
	wg.Wait()
	if v, ok := c.Get("a"); !ok || v != 1 {
		panic("the item expired or was lost")
	}
}

//fencecheck:system
func getWithoutLock() {
	c := New(0)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.Set("a", 1)
		wg.Done()
	}()
	go func() {
		_, _ = c.get("a")
		wg.Done()
	}()
	wg.Wait()
}
