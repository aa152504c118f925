// Package shardstrings follows github.com/orcaman/concurrent-map as it is
// written for string keys: New makes SHARD_COUNT shards, each a map with
// an embedded sync.RWMutex; GetShard hashes the key's bytes with FNV-1
// in a loop and picks the shard modulo the count, so which shard, and
// which lock and which map, is known only at run time; Upsert runs its
// callback under the shard's lock. Four shards here (32 there).
//
// Expected, by hand: upsertHits is correct and race-free: two goroutines
// count hits of two pages through Upsert, each increment under the lock
// of the page's shard, so the counts are 2 and 2. The mutant getThenSet
// counts as a caller that reads with Get and writes with Set does: two
// critical sections, so both goroutines may read 0 and both write 1 (the
// SC finding on the panic); no access races, as every one holds the
// shard's lock.
package shardstrings

import "sync"

// SHARD_COUNT is the number of shards.
var SHARD_COUNT = 4

// ConcurrentMap is a map of strings split in shards.
type ConcurrentMap[V any] struct {
	shards []*ConcurrentMapShared[V]
}

// ConcurrentMapShared is one shard: a map and the lock that guards it.
type ConcurrentMapShared[V any] struct {
	items map[string]V
	sync.RWMutex
}

// New makes an empty map.
func New[V any]() ConcurrentMap[V] {
	m := ConcurrentMap[V]{shards: make([]*ConcurrentMapShared[V], SHARD_COUNT)}
	for i := 0; i < SHARD_COUNT; i++ {
		m.shards[i] = &ConcurrentMapShared[V]{items: make(map[string]V)}
	}
	return m
}

// fnv32 is FNV-1 over the key's bytes.
func fnv32(key string) uint32 {
	hash := uint32(2166136261)
	const prime32 = uint32(16777619)
	keyLength := len(key)
	for i := 0; i < keyLength; i++ {
		hash *= prime32
		hash ^= uint32(key[i])
	}
	return hash
}

// GetShard returns the shard of key.
func (m ConcurrentMap[V]) GetShard(key string) *ConcurrentMapShared[V] {
	return m.shards[uint(fnv32(key))%uint(SHARD_COUNT)]
}

// Set stores value at key.
func (m ConcurrentMap[V]) Set(key string, value V) {
	shard := m.GetShard(key)
	shard.Lock()
	shard.items[key] = value
	shard.Unlock()
}

// Get returns the value at key.
func (m ConcurrentMap[V]) Get(key string) (V, bool) {
	shard := m.GetShard(key)
	shard.RLock()
	val, ok := shard.items[key]
	shard.RUnlock()
	return val, ok
}

// UpsertCb computes the new value from the one in the map, if any.
type UpsertCb[V any] func(exist bool, valueInMap V, newValue V) V

// Upsert inserts or updates key with the callback's result, under the
// shard's lock.
func (m ConcurrentMap[V]) Upsert(key string, value V, cb UpsertCb[V]) (res V) {
	shard := m.GetShard(key)
	shard.Lock()
	v, ok := shard.items[key]
	res = cb(ok, v, value)
	shard.items[key] = res
	shard.Unlock()
	return res
}

func add(exist bool, valueInMap, newValue int) int {
	if !exist {
		return newValue
	}
	return valueInMap + newValue
}

//fencecheck:system
func upsertHits() {
	hits := New[int]()
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			hits.Upsert("/index", 1, add)
			hits.Upsert("/about", 1, add)
		}()
	}
	wg.Wait()
	a, _ := hits.Get("/index")
	b, _ := hits.Get("/about")
	if a != 2 || b != 2 {
		panic("lost a hit")
	}
}

//fencecheck:system
func getThenSet() {
	hits := New[int]()
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			n, _ := hits.Get("/index")
			hits.Set("/index", n+1)
		}()
	}
	wg.Wait()
	if n, _ := hits.Get("/index"); n != 2 {
		panic("lost a hit") // want `^SC: system getThenSet is wrong even under sequential consistency`
	}
}
