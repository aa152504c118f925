package mapsys

import "sync"

// A map split into shards, each with its own lock, in the style of
// orcaman/concurrent-map: the shard of a key is chosen by its hash at run
// time, so the map an operation reaches is the one the chosen shard's
// field holds.

const shardCount = 4

type shard struct {
	sync.RWMutex
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

// fnv32 is FNV-1a over the key's bytes.
func fnv32(key string) uint32 {
	hash := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		hash *= 16777619
		hash ^= uint32(key[i])
	}
	return hash
}

func (m shardedMap) shardOf(key string) *shard { return m[fnv32(key)%shardCount] }

func (m shardedMap) set(key string, v int) {
	s := m.shardOf(key)
	s.Lock()
	s.items[key] = v
	s.Unlock()
}

func (m shardedMap) get(key string) (int, bool) {
	s := m.shardOf(key)
	s.RLock()
	v, ok := s.items[key]
	s.RUnlock()
	return v, ok
}

// setUnlocked forgets the shard's lock.
func (m shardedMap) setUnlocked(key string, v int) {
	m.shardOf(key).items[key] = v // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores shard.items\)` `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores shard.items\) .*\(system shardedKeysReceivedUnlocked\)`
}

//fencecheck:system
func shardedSets() {
	m := newShardedMap()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.set("a", 1)
	}()
	go func() {
		defer wg.Done()
		m.set("b", 2)
	}()
	wg.Wait()
	if v, ok := m.get("b"); !ok || v != 2 {
		panic("lost the second key")
	}
}

//fencecheck:system
func shardedSetsWrong() {
	m := newShardedMap()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.set("k", i)
		}()
	}
	wg.Wait()
	if v, _ := m.get("k"); v == 1 {
		panic("the second set came last") // want `^SC: system shardedSetsWrong is wrong even under sequential consistency`
	}
}

//fencecheck:system
func shardedSetsUnlocked() {
	m := newShardedMap()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.setUnlocked("k", i)
		}()
	}
	wg.Wait()
}

// shardedKeysReceived: the keys reach the workers through a channel, so
// which string each hashes, byte by byte, is known only at run time; each
// set holds its shard's lock.
//
//fencecheck:system
func shardedKeysReceived() {
	m := newShardedMap()
	keys := make(chan string, 3)
	keys <- "a"
	keys <- "bb"
	keys <- "ccc"
	close(keys)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				m.set(k, len(k))
			}
		}()
	}
	wg.Wait()
	if v, ok := m.get("bb"); !ok || v != 2 {
		panic("lost a key")
	}
}

// shardedKeysReceivedUnlocked: the same without the shard's lock.
//
//fencecheck:system
func shardedKeysReceivedUnlocked() {
	m := newShardedMap()
	keys := make(chan string, 2)
	keys <- "a"
	keys <- "e"
	close(keys)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				m.setUnlocked(k, 1)
			}
		}()
	}
	wg.Wait()
}

// lastByte reads the last byte of a received key: the empty key indexes
// out of range.
//
//fencecheck:system
func lastByte() {
	keys := make(chan string, 2)
	keys <- "ab"
	keys <- ""
	close(keys)
	done := make(chan byte)
	go func() {
		var b byte
		for k := range keys {
			b ^= k[len(k)-1] // want `^SC: system lastByte is wrong even under sequential consistency: the bad state index out of range is reached here`
		}
		done <- b
	}()
	<-done
}
