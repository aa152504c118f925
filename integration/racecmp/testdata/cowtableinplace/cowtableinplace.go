// Package cowtableinplace is cowtable's twin whose writer changes the
// published snapshot in place, under the writers' mutex, while readers
// read it without a lock.
//
// Expected: racy.
package cowtableinplace

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
	m, _ := t.snap.Load().(map[string]int)
	m[k] = v
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
