// Package k8sinformer is written in the style of Kubernetes' client-go
// thread-safe store, which a shared informer fills from its reflector
// while event handlers update it. The bug is double locking: Update, which
// holds the store's lock, falls back to Add for a key the store does not
// hold yet, and Add takes the lock again. The reflector's Add and a
// handler's Update race for the key, so the deadlock needs the Update to
// come first.
package k8sinformer

import "sync"

// threadSafeStore holds one object per key behind one lock.
type threadSafeStore struct {
	lock  sync.Mutex
	items [2]int32
	count int32
}

// Add stores obj under key.
func (c *threadSafeStore) Add(key int, obj int32) {
	c.lock.Lock() // want `^deadlock: go@\d+, go@\d+ and main block forever in c\.lock\.Lock\(\) and wg\.Wait\(\) \(system informerSync\)$`
	defer c.lock.Unlock()
	c.addLocked(key, obj)
}

// addLocked stores obj under key; c.lock must be held.
func (c *threadSafeStore) addLocked(key int, obj int32) {
	if c.items[key] == 0 {
		c.count++
	}
	c.items[key] = obj
}

// Update replaces the object under key, and adds it when the key is new:
// through Add, which locks c.lock, already held.
func (c *threadSafeStore) Update(key int, obj int32) {
	c.lock.Lock()
	defer c.lock.Unlock()
	if c.items[key] == 0 {
		c.Add(key, obj)
		return
	}
	c.items[key] = obj
}

// updateFixed adds a new key with addLocked, under the lock it holds.
func (c *threadSafeStore) updateFixed(key int, obj int32) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.addLocked(key, obj)
}

// Len returns the number of keys.
func (c *threadSafeStore) Len() int32 {
	c.lock.Lock()
	defer c.lock.Unlock()
	return c.count
}

// informerSync lists an object (the reflector) while a watch event for it
// arrives (a handler's Update).
//
//fencecheck:system
func informerSync() {
	store := &threadSafeStore{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); store.Add(0, 1) }()
	go func() { defer wg.Done(); store.Update(0, 2) }()
	wg.Wait()
	if store.Len() != 1 {
		panic("object counted twice")
	}
}

// informerSyncFixed updates with updateFixed.
//
//fencecheck:system
func informerSyncFixed() {
	store := &threadSafeStore{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); store.Add(0, 1) }()
	go func() { defer wg.Done(); store.updateFixed(0, 2) }()
	wg.Wait()
	if store.Len() != 1 {
		panic("object counted twice")
	}
}
