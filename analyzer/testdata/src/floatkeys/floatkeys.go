// Package floatkeys holds systems over maps keyed by floats, with Go's
// semantics: -0 and +0 are one key, a NaN equals no key (a lookup or a
// delete of one finds nothing). A histogram whose buckets are keyed by
// their upper bounds, updated under a lock, is correct, and its twin
// without the lock races; a check that expects a NaN key to be found, or
// -0 to be another key than +0, is found wrong. Inserting a NaN or -0 in
// a goroutine is refused where a run reaches it.
package floatkeys

import (
	"math"
	"sync"
)

// histogram counts observations in buckets keyed by their upper bound, as
// a metrics library's histogram does.
type histogram struct {
	mu      sync.Mutex
	buckets map[float64]uint64
	bounds  []float64
}

func newHistogram() *histogram {
	return &histogram{buckets: map[float64]uint64{0.5: 0, 1: 0, math.Inf(1): 0}, bounds: []float64{0.5, 1, math.Inf(1)}}
}

// observe adds v to the first bucket whose bound is at least v.
func (h *histogram) observe(v float64, locked bool) {
	if locked {
		h.mu.Lock()
		defer h.mu.Unlock()
	}
	for _, b := range h.bounds {
		if v <= b {
			h.buckets[b]++ // want `^race: go@\d+ stores h\.buckets here while go@\d+ loads h\.buckets`
			return
		}
	}
}

// histogramLocked: two goroutines observe under the lock; every
// observation is counted in its bucket.
//
//fencecheck:system
func histogramLocked() {
	h := newHistogram()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x := 0.25
		h.observe(x+x, true)
		wg.Done()
	}()
	go func() {
		h.observe(2.5, true)
		wg.Done()
	}()
	wg.Wait()
	if h.buckets[0.5] != 1 || h.buckets[math.Inf(1)] != 1 || len(h.buckets) != 3 {
		panic("lost observation")
	}
	var total uint64
	for b, n := range h.buckets {
		if b > 0.5 && b < 2 && n != 0 {
			panic("counted in the bucket of 1")
		}
		total += n
	}
	if total != 2 {
		panic("lost observation")
	}
}

// histogramUnlocked: one goroutine observes without the lock.
//
//fencecheck:system
func histogramUnlocked() {
	h := newHistogram()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		h.observe(0.75, false)
		wg.Done()
	}()
	go func() {
		h.observe(1, true)
		wg.Done()
	}()
	wg.Wait()
}

// signedZero: a goroutine computes -0 and counts under it; it is the key
// +0, which the set-up put in the map.
//
//fencecheck:system
func signedZero() {
	var mu sync.Mutex
	m := map[float64]int{0: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		one := 1.0
		mu.Lock()
		m[-(one-1)]++
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if m[0] != 2 || len(m) != 1 {
		panic("-0 is another key")
	}
}

// signedZeroWrong expects -0 to be a key of its own.
//
//fencecheck:system
func signedZeroWrong() {
	var mu sync.Mutex
	m := map[float64]int{0: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		one := 1.0
		mu.Lock()
		m[-(one-1)]++
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if len(m) != 2 {
		panic("-0 is the key +0") // want `^SC: system signedZeroWrong is wrong even under sequential consistency`
	}
}

// nanLookup: a lookup and a delete of a NaN computed at run time find
// nothing; the check that expects to find it is wrong.
//
//fencecheck:system
func nanLookup() {
	var mu sync.Mutex
	m := map[float64]int{1: 1}
	found := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		zero := 0.0
		nan := zero / zero
		mu.Lock()
		delete(m, nan)
		_, found = m[nan]
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if len(m) != 1 {
		panic("deleted a NaN")
	}
	if !found {
		panic("no NaN key") // want `^SC: system nanLookup is wrong even under sequential consistency`
	}
}

// nanInsert: a goroutine may insert a NaN it computes, which Go adds as a
// new entry each time: refused where a run reaches it.
//
//fencecheck:system
func nanInsert() { // want `^inconclusive: system nanInsert: .*inserting a NaN key into the map m`
	var mu sync.Mutex
	m := map[float64]int{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		zero := 0.0
		mu.Lock()
		m[zero/zero] = 1
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// point is a struct key with a float field.
type point struct {
	x float32
	n int
}

// structKey: a key whose float field is -0 is the key whose field is +0.
//
//fencecheck:system
func structKey() {
	var mu sync.Mutex
	m := map[point]int{{0, 1}: 5}
	got := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		z := float32(1)
		mu.Lock()
		got = m[point{-(z - 1), 1}]
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if got != 5 {
		panic("missed the key")
	}
}

// setupNaN inserts a NaN in the set-up, refused at its position.
//
//fencecheck:system
func setupNaN() {
	m := map[float64]int{}
	m[math.NaN()] = 1 // want `^unsupported in a fencecheck system: inserting a NaN key into the map m`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Done()
	}()
	wg.Wait()
	_ = m
}

// zeroRanged inserts -0 into a map a range visits, which would show the
// key's sign: refused where a run reaches the insertion.
//
//fencecheck:system
func zeroRanged() { // want `^inconclusive: system zeroRanged: .*inserting a -0 key into the map m`
	var mu sync.Mutex
	m := map[float64]int{0: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		one := 1.0
		mu.Lock()
		m[-(one - 1)] = 2
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	for k := range m {
		if 1/k < 0 {
			panic("a negative zero key")
		}
	}
}
