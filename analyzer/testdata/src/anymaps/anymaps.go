// Package anymaps has systems that keep maps in interface values: a
// copy-on-write snapshot in an atomic.Value, as configuration holders and
// routing tables publish theirs, a map handed over in an any, and the
// bugs of each (a writer without the lock, a write into the published
// snapshot, an assertion to the wrong type, a comparison Go panics at).
package anymaps

import (
	"sync"
	"sync/atomic"
)

// table is a copy-on-write map: readers load the snapshot without a lock,
// writers copy it under the mutex and publish the copy.
type table struct {
	snap atomic.Value // map[string]int32
	mu   sync.Mutex
}

func (t *table) get(k string) int32 {
	m, _ := t.snap.Load().(map[string]int32)
	return m[k] // want `^race: go@\d+ loads m here while go@\d+ stores m at anymaps.go:\d+:\d+, and nothing orders the two \(system inPlace\)`
}

func (t *table) set(k string, v int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.setLocked(k, v)
}

func (t *table) setLocked(k string, v int32) {
	old, _ := t.snap.Load().(map[string]int32)
	next := make(map[string]int32, len(old)+1)
	for kk, vv := range old {
		next[kk] = vv
	}
	next[k] = v
	t.snap.Store(next)
}

// copyOnWrite: two writers and a reader; every write is kept and the
// reader sees the set-up's key throughout.
//
//fencecheck:system
func copyOnWrite() {
	t := &table{}
	t.snap.Store(map[string]int32{"a": 1})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		t.set("b", 2)
		wg.Done()
	}()
	go func() {
		t.set("c", 3)
		wg.Done()
	}()
	go func() {
		if t.get("a") != 1 {
			panic("the snapshot lost a")
		}
		wg.Done()
	}()
	wg.Wait()
	if t.get("b") != 2 || t.get("c") != 3 {
		panic("lost a write")
	}
}

// unlockedWriters: the writers copy without the mutex, and one copy
// overwrites the other.
//
//fencecheck:system
func unlockedWriters() {
	t := &table{}
	t.snap.Store(map[string]int32{"a": 1})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		t.setLocked("b", 2)
		wg.Done()
	}()
	go func() {
		t.setLocked("c", 3)
		wg.Done()
	}()
	wg.Wait()
	if t.get("b") != 2 || t.get("c") != 3 {
		panic("lost a write") // want `^SC: system unlockedWriters is wrong even under sequential consistency: the panic is reached here`
	}
}

// inPlace: a writer changes the published snapshot, which readers read
// without a lock.
//
//fencecheck:system
func inPlace() {
	t := &table{}
	t.snap.Store(map[string]int32{"a": 1})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		t.mu.Lock()
		m := t.snap.Load().(map[string]int32)
		m["b"] = 2
		t.mu.Unlock()
		wg.Done()
	}()
	go func() {
		_ = t.get("a")
		wg.Done()
	}()
	wg.Wait()
}

// handOff: a goroutine makes a map and hands it over in an any.
//
//fencecheck:system
func handOff() {
	ch := make(chan any, 1)
	done := make(chan int32)
	go func() {
		ch <- map[string]int32{"x": 3}
	}()
	go func() {
		m := (<-ch).(map[string]int32)
		m["y"] = 4
		done <- m["x"] + m["y"]
	}()
	if <-done != 7 {
		panic("lost the map's contents")
	}
}

// wrongType: the receiver asserts another map type.
//
//fencecheck:system
func wrongType() {
	var v atomic.Value
	v.Store(map[string]int32{})
	done := make(chan bool)
	go func() {
		next := map[string]int32{"a": 1}
		v.Store(next)
		done <- true
	}()
	go func() {
		_ = v.Load().(map[string]int64) // want `^SC: system wrongType is wrong even under sequential consistency: the bad state interface conversion: interface is not map\[string\]int64 is reached here`
		done <- true
	}()
	<-done
	<-done
}

// compareSnapshots: Go panics comparing two interface values holding maps.
//
//fencecheck:system
func compareSnapshots() { // want `^inconclusive: system compareSnapshots: a run reaches comparing interface values that may both hold a map\[string\]int32 \(Go panics: comparing uncomparable type map\[string\]int32\)`
	var a, b atomic.Value
	a.Store(map[string]int32{})
	b.Store(map[string]int32{})
	done := make(chan bool)
	go func() {
		if a.Load() == b.Load() {
			panic("one map")
		}
		done <- true
	}()
	<-done
}

// casSnapshot swaps snapshots with CompareAndSwap: Go compares the maps
// and panics (comparing uncomparable type), which fencecheck refuses.
//
//fencecheck:system
func casSnapshot() { // want `^inconclusive: system casSnapshot: a run reaches a compare-and-swap of an atomic\.Value holding a map\[string\]int32 \(Go compares floats by value, and panics on types it cannot compare`
	var v atomic.Value
	v.Store(map[string]int32{})
	done := make(chan bool)
	go func() {
		old := v.Load().(map[string]int32)
		next := map[string]int32{"a": 1}
		done <- v.CompareAndSwap(old, next)
	}()
	<-done
}

// casSyncMap compares a map in a sync.Map: Go panics, refused.
//
//fencecheck:system
func casSyncMap() { // want `^inconclusive: system casSyncMap: a run reaches a CompareAndSwap of a sync\.Map whose old value may hold a map\[string\]int32, which Go cannot compare \(it panics\)`
	var sm sync.Map
	m := map[string]int32{}
	sm.Store("k", m)
	done := make(chan bool)
	go func() {
		done <- sm.CompareAndSwap("k", m, map[string]int32{"a": 1})
	}()
	<-done
}
