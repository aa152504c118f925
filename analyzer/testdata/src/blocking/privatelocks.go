package blocking

import "sync"

// A mutex of an object its goroutine made and has not published yet, as
// github.com/jellydator/ttlcache's NewItem locks the item it builds to
// touch it: no other goroutine reaches it, and it behaves as Go's does.

type cacheItem struct {
	mu    sync.RWMutex
	value int
}

func newCacheItem(v int) *cacheItem {
	it := &cacheItem{}
	it.mu.Lock()
	it.value = v
	it.mu.Unlock()
	it.mu.RLock()
	_ = it.value
	it.mu.RUnlock()
	return it
}

//fencecheck:system
func privateItemLock() {
	items := make(chan *cacheItem, 1)
	go func() { items <- newCacheItem(1) }()
	it := <-items
	it.mu.RLock()
	defer it.mu.RUnlock()
	if it.value != 1 {
		panic("the item's value is lost")
	}
}

//fencecheck:system
func privateItemUnlockTwice() {
	done := make(chan bool)
	go func() {
		it := &cacheItem{}
		it.mu.Lock()
		it.mu.Unlock()
		it.mu.Unlock() // want `^SC: system privateItemUnlockTwice is wrong even under sequential consistency: the bad state fatal error: sync: Unlock of unlocked RWMutex`
		done <- true
	}()
	<-done
}

//fencecheck:system
func privateItemRelock() {
	done := make(chan bool)
	go func() {
		it := &cacheItem{}
		it.mu.Lock()
		it.mu.Lock() // want `^deadlock: go@\d+ and main block forever in it\.mu\.Lock\(\) and <-done`
		done <- true
	}()
	<-done
}
