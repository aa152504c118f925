// Package syncmaps holds systems built on sync.Map, each beside a buggy
// twin.
package syncmaps

import "sync"

type entry struct{ n int }

// publish: a goroutine fills an entry and stores it; the other reads the
// entry only after the Load that sees it, which the Store is synchronized
// before.
//
//fencecheck:system
func publish() {
	var m sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		e := &entry{}
		e.n = 5
		m.Store("k", e)
		wg.Done()
	}()
	go func() {
		if v, ok := m.Load("k"); ok && v.(*entry).n != 5 {
			panic("half published")
		}
		wg.Done()
	}()
	wg.Wait()
}

var shared int

// publishOtherKey is its buggy twin: the reader loads another key, whose
// Store says nothing of the data the writer published with its own.
//
//fencecheck:system
func publishOtherKey() {
	var m sync.Map
	m.Store("b", 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		shared = 5 // want `^race: `
		m.Store("a", 1)
		wg.Done()
	}()
	go func() {
		if _, ok := m.Load("b"); ok {
			_ = shared
		}
		wg.Done()
	}()
	wg.Wait()
}

// keysApart: goroutines store and delete keys of their own; the final
// loads see every store that was not deleted.
//
//fencecheck:system
func keysApart() {
	var m sync.Map
	m.Store(0, 0)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			m.Store(i+1, i*10)
			wg.Done()
		}()
	}
	m.Delete(0)
	wg.Wait()
	if v, ok := m.Load(2); !ok || v.(int) != 10 {
		panic("missing")
	}
	if _, ok := m.Load(0); ok {
		panic("not deleted")
	}
}

// lastWriteWins is its buggy twin: two goroutines store the same key, and
// either may be last.
//
//fencecheck:system
func lastWriteWins() {
	var m sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			m.Store("k", i)
			wg.Done()
		}()
	}
	wg.Wait()
	if v, _ := m.Load("k"); v.(int) != 1 {
		panic("the first store was last") // want `^SC: system lastWriteWins is wrong even under sequential consistency`
	}
}

// loadOrStoreOnce: of two goroutines that LoadOrStore one key, exactly
// one stores it.
//
//fencecheck:system
func loadOrStoreOnce() {
	var m sync.Map
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	wg.Add(2)
	for i := range 2 {
		go func() {
			if v, loaded := m.LoadOrStore("k", i); !loaded {
				mu.Lock()
				created++
				mu.Unlock()
			} else if v.(int) == i {
				panic("loaded its own value")
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if created != 1 {
		panic("created twice")
	}
}

// loadThenStore is its buggy twin: a Load then a Store are two steps, and
// both goroutines may find the key missing.
//
//fencecheck:system
func loadThenStore() {
	var m sync.Map
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	wg.Add(2)
	for i := range 2 {
		go func() {
			if _, ok := m.Load("k"); !ok {
				m.Store("k", i)
				mu.Lock()
				created++
				mu.Unlock()
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if created != 1 {
		panic("created twice") // want `^SC: system loadThenStore is wrong even under sequential consistency`
	}
}

// claimOnce: LoadAndDelete, CompareAndSwap and CompareAndDelete each let
// one goroutine of two win a key.
//
//fencecheck:system
func claimOnce() {
	var m sync.Map
	m.Store("job", 1)
	m.Store("flag", 0)
	m.Store("lock", 7)
	var wins [3]atomicCounter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if v, ok := m.LoadAndDelete("job"); ok && v.(int) == 1 {
				wins[0].add()
			}
			if m.CompareAndSwap("flag", 0, 1) {
				wins[1].add()
			}
			if m.CompareAndDelete("lock", 7) {
				wins[2].add()
			}
			wg.Done()
		}()
	}
	wg.Wait()
	for i := range len(wins) {
		if wins[i].get() != 1 {
			panic("no single winner")
		}
	}
	if v, _ := m.Swap("flag", 2); v.(int) != 1 {
		panic("swap lost the value")
	}
}

// claimSwap is its buggy twin: Swap hands back the old value, but both
// goroutines may swap in the same one.
//
//fencecheck:system
func claimSwap() {
	var m sync.Map
	m.Store("flag", 0)
	var wins atomicCounter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if old, _ := m.Swap("flag", 1); old.(int) == 0 {
				wins.add()
			}
			m.Store("flag", 0)
			wg.Done()
		}()
	}
	wg.Wait()
	if wins.get() != 1 {
		panic("no single winner") // want `^SC: system claimSwap is wrong even under sequential consistency`
	}
}

type atomicCounter struct {
	mu sync.Mutex
	n  int
}

func (c *atomicCounter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *atomicCounter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// rangeVisits: Range after the stores sees both keys, and f reads the
// entry each key's Store published.
//
//fencecheck:system
func rangeVisits() {
	var m sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			e := &entry{}
			e.n = i + 1
			m.Store(i, e)
			wg.Done()
		}()
	}
	go func() {
		m.Range(func(k, v any) bool {
			if v.(*entry).n != k.(int)+1 {
				panic("half published")
			}
			return true
		})
	}()
	wg.Wait()
	n := 0
	m.Range(func(k, v any) bool { n++; return true })
	if n != 2 {
		panic("count")
	}
}

// rangeStops is its buggy twin: f returns false at the first key, and
// which key comes first is the map's choice.
//
//fencecheck:system
func rangeStops() {
	var m sync.Map
	m.Store(1, 1)
	m.Store(2, 2)
	go func() {}()
	first := 0
	m.Range(func(k, v any) bool {
		first = k.(int)
		return false
	})
	if first != 1 {
		panic("the range started elsewhere") // want `^SC: system rangeStops is wrong even under sequential consistency`
	}
}

// rangeOtherKey: reading in f, at one key, data that another key's Store
// published races when that key has not been visited.
//
//fencecheck:system
func rangeOtherKey() {
	var m sync.Map
	m.Store("a", 0)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		shared = 1 // want `^race: `
		m.Store("b", 1)
		wg.Done()
	}()
	go func() {
		m.Range(func(k, v any) bool {
			if k.(string) == "a" {
				_ = shared
			}
			return true
		})
		wg.Done()
	}()
	wg.Wait()
}

// setupOps: the set-up's read-modify-writes run as Go runs them, and a
// goroutine sees their outcome.
//
//fencecheck:system
func setupOps() {
	var m sync.Map
	if _, loaded := m.LoadOrStore("a", 1); loaded {
		panic("loaded from an empty map")
	}
	if v, loaded := m.LoadOrStore("a", 2); !loaded || v.(int) != 1 {
		panic("stored twice")
	}
	if old, _ := m.Swap("a", 3); old.(int) != 1 {
		panic("swap")
	}
	if !m.CompareAndSwap("a", 3, 4) || m.CompareAndSwap("a", 3, 5) {
		panic("compare and swap")
	}
	m.Store("b", 1)
	if v, ok := m.LoadAndDelete("b"); !ok || v.(int) != 1 {
		panic("load and delete")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if v, ok := m.Load("a"); !ok || v.(int) != 4 {
			panic("lost")
		}
		if _, ok := m.Load("b"); ok {
			panic("deleted key back")
		}
		m.Clear()
		wg.Done()
	}()
	wg.Wait()
	if _, ok := m.Load("a"); ok {
		panic("not cleared")
	}
}
