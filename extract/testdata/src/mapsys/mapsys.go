// Package mapsys has systems over maps: made by the set-up or by a
// goroutine, read, written, deleted, cleared and ranged over.
package mapsys

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// guarded: two goroutines insert under a mutex; the map holds both keys
// after the wait.
//
//fencecheck:system
func guarded() {
	var mu sync.Mutex
	m := make(map[string]int32)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		m["a"] = 1
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		m["b"] = m["a"] + 1
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if len(m) != 2 {
		panic("lost a key")
	}
	if v, ok := m["a"]; !ok || v != 1 {
		panic("lost a")
	}
}

// unguarded: the same without the mutex: the two writes race.
//
//fencecheck:system
func unguarded() {
	m := map[string]int32{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m["a"] = 1
		wg.Done()
	}()
	go func() {
		m["b"] = 2
		wg.Done()
	}()
	wg.Wait()
}

// readOnly: the set-up fills the map; goroutines read it.
//
//fencecheck:system
func readOnly() {
	m := map[int]int32{0: 10, 1: 20, 2: 30}
	var sum [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			sum[i] = m[i] + m[i+1]
			wg.Done()
		}()
	}
	wg.Wait()
	if sum[0] != 30 || sum[1] != 50 {
		panic("wrong sum")
	}
}

// nilMap: a goroutine writes to a nil map.
//
//fencecheck:system
func nilMap() {
	var m map[string]bool
	done := make(chan struct{})
	go func() {
		if !m["x"] {
			m["x"] = true
		}
		close(done)
	}()
	<-done
}

// rangeSum: every order of a range gives the same sum.
//
//fencecheck:system
func rangeSum() {
	m := map[string]int32{"a": 1, "b": 2, "c": 4}
	var total int32
	done := make(chan struct{})
	go func() {
		for _, v := range m {
			total = total*0 + total + v
		}
		close(done)
	}()
	<-done
	if total != 7 {
		panic("wrong total")
	}
}

// rangeFirst: the first key a range visits depends on the order.
//
//fencecheck:system
func rangeFirst() {
	m := map[string]int32{"a": 1, "b": 2}
	var first int32
	done := make(chan struct{})
	go func() {
		for _, v := range m {
			first = v
			break
		}
		close(done)
	}()
	<-done
	if first != 1 {
		panic("b came first")
	}
}

// local: a goroutine's own map with keys known at run time.
//
//fencecheck:system
func local() {
	var out int32
	done := make(chan struct{})
	go func() {
		seen := map[int]bool{}
		for i := range 3 {
			seen[i%2] = true
		}
		delete(seen, 0)
		out = int32(len(seen))
		close(done)
	}()
	<-done
	if out != 1 {
		panic("wrong count")
	}
}

// store is a cache whose Flush swaps in a new map under the lock.
type store struct {
	mu    sync.Mutex
	items map[string]int32
}

func (c *store) set(k string, v int32) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

func (c *store) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *store) flush() {
	c.mu.Lock()
	c.items = map[string]int32{}
	c.mu.Unlock()
}

// swap: a goroutine flushes and sets while another counts.
//
//fencecheck:system
func swap() {
	c := &store{items: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.flush()
		c.set("b", 2)
		wg.Done()
	}()
	go func() {
		if c.count() > 1 {
			panic("two items")
		}
		wg.Done()
	}()
	wg.Wait()
	if c.count() != 1 {
		panic("flush lost")
	}
}

// swapLost: a count of 2 is possible when the flush is not seen.
//
//fencecheck:system
func swapLost() {
	c := &store{items: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.set("b", 2)
		c.flush()
		wg.Done()
	}()
	if c.count() == 2 {
		panic("saw both")
	}
	wg.Wait()
}

// nilReads: a nil map reads as empty; delete and clear do nothing.
//
//fencecheck:system
func nilReads() {
	var m map[int]int32
	var out int32
	done := make(chan struct{})
	go func() {
		delete(m, 1)
		clear(m)
		for range m {
			out++
		}
		v, ok := m[1]
		if ok || v != 0 || len(m) != 0 {
			out = 9
		}
		close(done)
	}()
	<-done
	if out != 0 {
		panic("a nil map had keys")
	}
}

type pair struct {
	a int8
	b bool
}

// structKeys: keys of struct type, computed by the goroutines.
//
//fencecheck:system
func structKeys() {
	var mu sync.Mutex
	m := map[pair]string{{1, true}: "x"}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			mu.Lock()
			m[pair{int8(i), i == 1}] = "y"
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if m[pair{1, true}] != "y" || m[pair{0, false}] != "y" || len(m) != 2 {
		panic("lost a key")
	}
}

// counterKeys: a goroutine inserts the keys of a counter nothing bounds.
//
//fencecheck:system
func counterKeys() {
	var mu sync.Mutex
	m := map[int32]bool{}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		for i := int32(0); !stop.Load(); i++ {
			mu.Lock()
			m[i] = true
			mu.Unlock()
		}
		close(done)
	}()
	stop.Store(true)
	<-done
}

// errorResult: Add returns nil or an fmt.Errorf error, as go-cache's.
//
//fencecheck:system
func errorResult() {
	c := &store{items: map[string]int32{}}
	var wg sync.WaitGroup
	wg.Add(2)
	var fails atomic.Int32
	for range 2 {
		go func() {
			if err := c.add("a", 1); err != nil {
				fails.Add(1)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if fails.Load() != 1 {
		panic("two adds of one key")
	}
}

func (c *store) add(k string, v int32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return fmt.Errorf("item %s already exists", k)
	}
	c.items[k] = v
	return nil
}

type node struct{ next *node }

// visited: a set of pointers, as a graph walk keeps.
//
//fencecheck:system
func visited() {
	a := &node{}
	b := &node{next: a}
	var mu sync.Mutex
	seen := map[*node]bool{a: true}
	var wg sync.WaitGroup
	wg.Add(2)
	for _, n := range [2]*node{a, b} {
		go func() {
			mu.Lock()
			seen[n] = true
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if len(seen) != 2 || !seen[b] || seen[nil] {
		panic("lost b")
	}
}

// chanKeys: channels as keys, ranged over in a goroutine that sends on
// the one it looks for.
//
//fencecheck:system
func chanKeys() {
	a, b := make(chan int, 1), make(chan int, 1)
	names := map[chan int]string{a: "a", b: "b"}
	done := make(chan struct{})
	go func() {
		for c, name := range names {
			if name == "a" {
				c <- 1
			}
		}
		close(done)
	}()
	<-done
	if len(a) != 1 || len(b) != 0 {
		panic("sent on the wrong channel")
	}
}

// anyKeys: interface values as keys.
//
//fencecheck:system
func anyKeys() {
	var mu sync.Mutex
	m := map[any]int32{1: 10, "one": 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		mu.Lock()
		m[1] += m["one"]
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if m[1] != 11 || len(m) != 2 {
		panic("wrong sum")
	}
}

// set is a named map type with methods.
type set map[string]bool

func (s set) add(k string)      { s[k] = true }
func (s set) has(k string) bool { return s[k] }

// clearAll: a goroutine clears a set under the lock, another adds to it.
//
//fencecheck:system
func clearAll() {
	var mu sync.Mutex
	s := set{"a": true}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		clear(s)
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		s.add("b")
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if s.has("a") || len(s) > 1 {
		panic("clear lost")
	}
}

// registry makes its map on first use.
type registry struct {
	mu sync.Mutex
	m  map[string]int32
}

func (r *registry) put(k string, v int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]int32{}
	}
	r.m[k] = v
}

func (r *registry) putLocal(k string, v int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.m
	if m == nil {
		m = make(map[string]int32)
		r.m = m
	}
	m[k] = v
}

func (r *registry) get(k string) int32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[k]
}

// lazyInit: the first put makes the map, whichever goroutine runs it.
//
//fencecheck:system
func lazyInit() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.put("a", 1)
		wg.Done()
	}()
	go func() {
		r.putLocal("b", 2)
		wg.Done()
	}()
	wg.Wait()
	if r.get("a") != 1 || r.get("b") != 2 {
		panic("lost a put")
	}
}

// readerFirst: the goroutine lowered first looks up a key that only the
// second inserts; the lookup must not be taken as always missing.
//
//fencecheck:system
func readerFirst() {
	var mu sync.Mutex
	m := map[string]int32{}
	var seen int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		seen = m["b"]
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		m["b"] = 1
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if seen == 1 {
		panic("the reader came second")
	}
}
