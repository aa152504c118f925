package stdcalls

import (
	"container/list"
	"sync"
)

// An LRU in the shape of hashicorp/golang-lru's simple cache: a
// container/list of entries and a map from keys to the list's elements,
// under one mutex. The map's elements lie inside the list's objects,
// which the lowering keeps from one round to the next (an element kept
// in the map before its list was an internal error).

type lruEntry struct {
	key, val int
}

type lruCache struct {
	mu    sync.Mutex
	ll    *list.List
	items map[int]*list.Element
	hits  int
}

func (c *lruCache) add(k, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		e.Value.(*lruEntry).val = v
		return
	}
	c.items[k] = c.ll.PushFront(&lruEntry{k, v})
}

func (c *lruCache) remove(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.ll.Remove(e)
		delete(c.items, k)
	}
}

func (c *lruCache) getLate(k int) {
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	if ok {
		c.hits++ // want `^race: go@\d+ stores c\.hits here while go@\d+ loads c\.hits`
	}
}

// lruAddRemove: one goroutine adds, another removes the key the set-up
// added.
//
//fencecheck:system
func lruAddRemove() {
	c := &lruCache{ll: list.New(), items: map[int]*list.Element{}}
	c.items[1] = c.ll.PushFront(&lruEntry{1, 1})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.add(2, 2) }()
	go func() { defer wg.Done(); c.remove(1) }()
	wg.Wait()
	if c.ll.Len() != len(c.items) {
		panic("list and map disagree")
	}
}

// lruHitsUnlocked: the hit count is kept after the unlock.
//
//fencecheck:system
func lruHitsUnlocked() {
	c := &lruCache{ll: list.New(), items: map[int]*list.Element{}}
	c.items[1] = c.ll.PushFront(&lruEntry{1, 1})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.getLate(1) }()
	go func() { defer wg.Done(); c.getLate(1) }()
	wg.Wait()
}
