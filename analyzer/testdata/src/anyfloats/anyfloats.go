// Package anyfloats holds systems whose interface values hold float64 and
// float32 values computed at run time and kept in memory: a gauge that
// publishes a float it computes in an any, a cache entry whose float is
// read back, asserted, added to and stored again (go-cache's
// IncrementFloat64), and comparisons of interface values holding floats,
// which Go makes by value (NaN is unequal to itself, -0 equals +0). Each
// has a correct system and a buggy twin.
package anyfloats

import (
	"math"
	"sync"
	"sync/atomic"
)

// slot is one interface value guarded by a mutex.
type slot struct {
	mu sync.Mutex
	v  any
}

func (s *slot) set(v any) {
	s.mu.Lock()
	s.v = v
	s.mu.Unlock()
}

func (s *slot) get() any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v
}

// gauge: a goroutine computes a ratio and publishes it in an any; the
// reader asserts it back and sees either nothing or the whole ratio.
//
//fencecheck:system
func gauge() {
	var s slot
	var hits, total int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		hits, total = 3, 4
		s.set(float64(hits) / float64(total))
	}()
	go func() {
		defer wg.Done()
		if f, ok := s.get().(float64); ok && f != 0.75 {
			panic("wrong ratio")
		}
	}()
	wg.Wait()
}

// gaugeTwoSteps publishes the numerator first, then the ratio: the reader
// may see the numerator.
//
//fencecheck:system
func gaugeTwoSteps() {
	var s slot
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		hits, total := 3, 4
		s.set(float64(hits))
		s.set(float64(hits) / float64(total))
	}()
	go func() {
		defer wg.Done()
		if f, ok := s.get().(float64); ok && f != 0.75 {
			panic("wrong ratio") // want `^SC: system gaugeTwoSteps is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// entry is a cache item holding any value, as go-cache's Item.
type entry struct {
	obj any
}

// floats is a cache of entries under a mutex.
type floats struct {
	mu    sync.Mutex
	items map[string]entry
}

// add adds n to the float64 held under k, as go-cache's IncrementFloat64.
func (c *floats) add(k string, n float64, locked bool) {
	if locked {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	it, ok := c.items[k] // want `^race: go@\d+ loads c\.items here while go@\d+ stores c\.items`
	if !ok {
		return
	}
	if v, isFloat := it.obj.(float64); isFloat {
		it.obj = v + n
		c.items[k] = it
	}
}

// floatCounter adds 0.5 three times from two goroutines under the lock.
//
//fencecheck:system
func floatCounter() {
	c := &floats{items: map[string]entry{"load": {obj: 0.0}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			c.add("load", 0.5, true)
		}
		wg.Done()
	}()
	go func() {
		c.add("load", 0.5, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["load"].obj.(float64) != 1.5 {
		panic("lost addition")
	}
}

// floatCounterUnlocked adds without the lock in one goroutine.
//
//fencecheck:system
func floatCounterUnlocked() {
	c := &floats{items: map[string]entry{"load": {obj: 0.0}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.add("load", 0.5, false)
		wg.Done()
	}()
	go func() {
		c.add("load", 0.25, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["load"].obj.(float64) != 0.75 {
		panic("lost addition") // want `^SC: system floatCounterUnlocked is wrong even under sequential consistency`
	}
}

// zeroes: a goroutine stores -0 computed at run time; an interface value
// holding -0 equals one holding +0, as Go compares floats.
//
//fencecheck:system
func zeroes() {
	var s slot
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := 1.0
		s.set(-(x - 1))
	}()
	wg.Wait()
	if s.get() != any(0.0) {
		panic("-0 differs from +0")
	}
	if f := s.get().(float64); 1/f > 0 {
		panic("the sign of zero is lost")
	}
}

// notANumber: the stored NaN is unequal to itself through the interface
// value; the check that expects it equal is wrong.
//
//fencecheck:system
func notANumber() {
	var s slot
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := 0.0
		s.set(x / x)
	}()
	wg.Wait()
	v := s.get()
	if v != v {
		panic("NaN is unequal to itself") // want `^SC: system notANumber is wrong even under sequential consistency`
	}
}

// float32s: a float32 and a float64 of the same value are different
// dynamic types.
//
//fencecheck:system
func float32s() {
	var s slot
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := float32(1)
		s.set(x / 4)
	}()
	wg.Wait()
	if s.get() == any(0.25) {
		panic("a float32 equals a float64")
	}
	if s.get() != any(float32(0.25)) {
		panic("wrong quarter")
	}
	_ = math.Pi
}

// floatKey keys a map by an interface value holding a float.
//
//fencecheck:system
func floatKey() { // want `^inconclusive: system floatKey: a run reaches a map key that may be an interface value holding a float`
	var s slot
	seen := map[any]int{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := 0.5
		s.set(x * 2)
	}()
	wg.Wait()
	seen[s.get()]++
}

// atomicRatio publishes a ratio through an atomic.Value; the reader loads
// and asserts it.
//
//fencecheck:system
func atomicRatio() {
	var v atomic.Value
	v.Store(0.5)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		hits, total := 3, 4
		v.Store(float64(hits) / float64(total))
		wg.Done()
	}()
	go func() {
		if r := v.Load().(float64); r != 0.5 && r != 0.75 {
			panic("a ratio never published")
		}
		wg.Done()
	}()
	wg.Wait()
}

// atomicRatioSteps publishes the numerator before the ratio.
//
//fencecheck:system
func atomicRatioSteps() {
	var v atomic.Value
	v.Store(0.5)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		hits, total := 3, 4
		v.Store(float64(hits))
		v.Store(float64(hits) / float64(total))
		wg.Done()
	}()
	go func() {
		if r := v.Load().(float64); r != 0.5 && r != 0.75 {
			panic("a ratio never published") // want `^SC: system atomicRatioSteps is wrong even under sequential consistency`
		}
		wg.Done()
	}()
	wg.Wait()
}

// roundingOrder adds 0.1 twice in one goroutine and 1 in another, under
// the lock: no addition is lost, but 0.1 + 0.1 + 1 is 1.2 while 1 + 0.1 +
// 0.1 rounds to 1.2000000000000002, so the check of an exact sum fails in
// some orders.
//
//fencecheck:system
func roundingOrder() {
	c := &floats{items: map[string]entry{"load": {obj: 0.0}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.add("load", 0.1, true)
		c.add("load", 0.1, true)
		wg.Done()
	}()
	go func() {
		c.add("load", 1, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["load"].obj.(float64) != 1.2 {
		panic("the sum depends on the order") // want `^SC: system roundingOrder is wrong even under sequential consistency`
	}
}
