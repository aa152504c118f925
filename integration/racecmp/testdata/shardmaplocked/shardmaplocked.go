// Package shardmaplocked has a map split into shards, each guarded by
// its own lock, the shard of a key chosen by its FNV hash, in the style
// of orcaman/concurrent-map.
//
// Expected: race-free.
package shardmaplocked

import "sync"

const shardCount = 4

type shard struct {
	sync.Mutex
	items map[string]int
}

type shardedMap []*shard

func newShardedMap() shardedMap {
	m := make(shardedMap, shardCount)
	for i := range shardCount {
		m[i] = &shard{items: make(map[string]int)}
	}
	return m
}

func fnv32(key string) uint32 {
	hash := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		hash *= 16777619
		hash ^= uint32(key[i])
	}
	return hash
}

func (m shardedMap) set(key string, v int) {
	s := m[fnv32(key)%shardCount]
	s.Lock()
	s.items[key] = v
	s.Unlock()
}

// system: two goroutines set one key.
//
//fencecheck:system
func system() {
	m := newShardedMap()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.set("k", 1)
	}()
	go func() {
		defer wg.Done()
		m.set("k", 2)
	}()
	wg.Wait()
}
