// Package shardmap follows github.com/orcaman/concurrent-map: a
// ConcurrentMap of shards, each a map with an embedded sync.RWMutex, the
// shard of a key chosen by an FNV-1 hash of the key's bytes modulo the
// shard count; Set and Upsert lock the key's shard, Get read-locks it.
// Two shards here (SHARD_COUNT is 32 there), and uint32 keys whose four
// bytes the hash takes in straight-line code, so that every key names its
// shard before the run (shardstrings has the string keys, the hash loop
// and the shard chosen at run time).
//
// Expected, by hand: upsertCounts is correct and race-free: the two
// goroutines count into keys of both shards through Upsert, whose
// callback runs under the shard's lock, so no count is lost. The mutant
// upsertReentrant does what Upsert's documentation forbids: its callback
// reads another key of the map, and that key (3) hashes to the same
// shard as 1. RWMutex is not reentrant, so the goroutine waits in RLock
// for the lock it holds, the other waits for the shard, and the system
// function waits for both (deadlock).
package shardmap

import "sync"

const shardCount = 2

// ConcurrentMap is a map split in shards, each with its own lock.
type ConcurrentMap[V any] []*shared[V]

type shared[V any] struct {
	items map[uint32]V
	sync.RWMutex
}

// New returns an empty map.
func New[V any]() ConcurrentMap[V] {
	m := make(ConcurrentMap[V], shardCount)
	for i := 0; i < shardCount; i++ {
		m[i] = &shared[V]{items: make(map[uint32]V)}
	}
	return m
}

// fnv32 is FNV-1 over the key's four bytes, low byte first.
func fnv32(key uint32) uint32 {
	const prime32 = uint32(16777619)
	hash := uint32(2166136261)
	hash = hash*prime32 ^ key&0xff
	hash = hash*prime32 ^ key>>8&0xff
	hash = hash*prime32 ^ key>>16&0xff
	hash = hash*prime32 ^ key>>24
	return hash
}

// GetShard returns the shard of key.
func (m ConcurrentMap[V]) GetShard(key uint32) *shared[V] {
	return m[uint(fnv32(key))%uint(shardCount)]
}

// Set stores value at key.
func (m ConcurrentMap[V]) Set(key uint32, value V) {
	shard := m.GetShard(key)
	shard.Lock()
	shard.items[key] = value
	shard.Unlock()
}

// Get returns the value at key.
func (m ConcurrentMap[V]) Get(key uint32) (V, bool) {
	shard := m.GetShard(key)
	shard.RLock() // want `^deadlock: go@\d+, go@\d+#2 and main block forever in shard\.RLock\(\), shard\.Lock\(\) and wg\.Wait\(\) \(system upsertReentrant\)`
	val, ok := shard.items[key]
	shard.RUnlock()
	return val, ok
}

// UpsertCb computes the new value from the one in the map, if any. It
// runs under the shard's lock: it must not use the map.
type UpsertCb[V any] func(exist bool, valueInMap V, newValue V) V

// Upsert inserts or updates key with the callback's result.
func (m ConcurrentMap[V]) Upsert(key uint32, value V, cb UpsertCb[V]) (res V) {
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
func upsertCounts() {
	m := New[int]()
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			m.Upsert(1, 1, add)
			m.Upsert(2, 1, add)
		}()
	}
	wg.Wait()
	a, _ := m.Get(1)
	b, _ := m.Get(2)
	if a != 2 || b != 2 {
		panic("lost a count")
	}
}

//fencecheck:system
func upsertReentrant() {
	m := New[int]()
	m.Set(3, 10)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			m.Upsert(1, 1, func(exist bool, valueInMap, newValue int) int {
				limit, _ := m.Get(3)
				if exist && valueInMap < limit {
					return valueInMap + newValue
				}
				return newValue
			})
		}()
	}
	wg.Wait()
}
