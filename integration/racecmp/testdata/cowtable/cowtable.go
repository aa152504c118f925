// Package cowtable keeps a routing table as a copy-on-write map in an
// atomic.Value, in the style of grpc-go's and Caddy's copy-on-write
// registries: readers load the snapshot without a lock, writers copy it
// under a mutex and publish the copy.
//
// Expected: race-free.
package cowtable

import (
	"sync"
	"sync/atomic"
)

type table struct {
	snap atomic.Value // map[string]int
	mu   sync.Mutex
}

func (t *table) get(k string) int {
	m, _ := t.snap.Load().(map[string]int)
	return m[k]
}

func (t *table) set(k string, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, _ := t.snap.Load().(map[string]int)
	next := make(map[string]int, len(old)+1)
	for kk, vv := range old {
		next[kk] = vv
	}
	next[k] = v
	t.snap.Store(next)
}

// system: two writers and a reader.
//
//fencecheck:system
func system() {
	t := &table{}
	t.snap.Store(map[string]int{"a": 1})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { t.set("b", 2); wg.Done() }()
	go func() { t.set("c", 3); wg.Done() }()
	go func() { _ = t.get("a"); wg.Done() }()
	wg.Wait()
	if t.get("b") != 2 || t.get("c") != 3 {
		panic("lost a write")
	}
}
