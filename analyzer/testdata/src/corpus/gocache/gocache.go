// Package gocache follows github.com/patrickmn/go-cache without expiration:
// a cache of Items in a map[string]Item guarded by a sync.RWMutex, Get
// under RLock, Set and the read-modify-write IncrementInt under Lock, Add
// failing when the key is present. As in go-cache, an item's Object is an
// interface{}: IncrementInt asserts the int it holds, adds to it and
// stores the sum back, a value computed at run time.
//
// Expected, by hand: counters is correct and race-free (every map access
// holds the lock, the increments are under the write lock, so both are
// counted, and only one Add succeeds). The mutant readLockedIncrement
// takes only the read lock in IncrementInt, a slip that reads as harmless
// because the method "only updates a value": both goroutines hold the
// read lock at once, so one's lookup races with the other's assignment
// (one finding, on the map: what Go reports as "concurrent map read and
// map write"), and one increment can be lost (SC).
package gocache

import (
	"errors"
	"sync"
)

// Item is a cached value.
type Item struct {
	Object     interface{}
	Expiration int64
}

// Cache is a map of Items under a read-write lock.
type Cache struct {
	mu    sync.RWMutex
	items map[string]Item
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{items: make(map[string]Item)}
}

var (
	errExists   = errors.New("item already exists")
	errNotFound = errors.New("item not found")
	errNotInt   = errors.New("the value is not an int")
)

// Set adds or replaces the item of k.
func (c *Cache) Set(k string, x interface{}) {
	c.mu.Lock()
	c.items[k] = Item{Object: x}
	c.mu.Unlock()
}

// Get returns the object of k and whether it was there.
func (c *Cache) Get(k string) (interface{}, bool) {
	c.mu.RLock()
	item, found := c.items[k]
	if !found {
		c.mu.RUnlock()
		return nil, false
	}
	c.mu.RUnlock()
	return item.Object, true
}

// Add sets k only if it is not there yet.
func (c *Cache) Add(k string, x interface{}) error {
	c.mu.Lock()
	if _, found := c.items[k]; found {
		c.mu.Unlock()
		return errExists
	}
	c.items[k] = Item{Object: x}
	c.mu.Unlock()
	return nil
}

// IncrementInt adds n to the int stored at k and returns the sum.
func (c *Cache) IncrementInt(k string, n int) (int, error) {
	c.mu.Lock()
	v, found := c.items[k]
	if !found {
		c.mu.Unlock()
		return 0, errNotFound
	}
	rv, ok := v.Object.(int)
	if !ok {
		c.mu.Unlock()
		return 0, errNotInt
	}
	nv := rv + n
	v.Object = nv
	c.items[k] = v
	c.mu.Unlock()
	return nv, nil
}

//fencecheck:system
func counters() {
	c := New()
	c.Set("hits", 0)
	var added [2]bool
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			c.IncrementInt("hits", 1)
			added[i] = c.Add("owner", i) == nil
		}()
	}
	wg.Wait()
	if v, _ := c.Get("hits"); v.(int) != 2 {
		panic("lost an increment")
	}
	if added[0] == added[1] {
		panic("Add succeeded twice or never")
	}
}

// incrementRLocked is IncrementInt under the read lock.
func (c *Cache) incrementRLocked(k string, n int) (int, error) {
	c.mu.RLock()
	v, found := c.items[k] // want `^race: go@\d+(#2)? loads c\.items here while go@\d+(#2)? stores c\.items at gocache\.go:\d+:\d+, and nothing orders the two \(system readLockedIncrement\)`
	if !found {
		c.mu.RUnlock()
		return 0, errNotFound
	}
	rv, ok := v.Object.(int)
	if !ok {
		c.mu.RUnlock()
		return 0, errNotInt
	}
	nv := rv + n
	v.Object = nv
	c.items[k] = v
	c.mu.RUnlock()
	return nv, nil
}

//fencecheck:system
func readLockedIncrement() {
	c := New()
	c.Set("hits", 0)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			c.incrementRLocked("hits", 1)
		}()
	}
	wg.Wait()
	if v, _ := c.Get("hits"); v.(int) != 2 {
		panic("lost an increment") // want `^SC: system readLockedIncrement is wrong even under sequential consistency: the panic is reached here`
	}
}
