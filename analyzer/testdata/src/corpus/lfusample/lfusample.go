// Package lfusample follows the sampled LFU eviction of
// github.com/dgraph-io/ristretto's policy: the admission policy keeps a
// map from key to its use count under a mutex, and to make room it takes
// a sample of keys by ranging over that map (Go's range order is the
// source of randomness) and evicts the least used key of the sample.
//
// Expected, by hand: evictCold is correct and race-free: the sample
// (lfuSample keys) covers the whole map here, so whatever the order of
// the range, the victim is the cold key and the hot key survives the
// insertion that evicts. The mutant evictFirstSample takes a sample of
// one key, the first the range yields: in the order that visits the hot
// key first, the hot key is evicted (SC: the outcome depends on the
// map's order).
package lfusample

import "sync"

const lfuSample = 5

// policy counts the uses of each admitted key.
type policy struct {
	mu       sync.Mutex
	keyHits  map[uint64]int32
	maxItems int
	sample   int
}

func newPolicy(maxItems, sample int) *policy {
	return &policy{keyHits: make(map[uint64]int32), maxItems: maxItems, sample: sample}
}

// Access records a use of key if it is admitted.
func (p *policy) Access(key uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if hits, ok := p.keyHits[key]; ok {
		p.keyHits[key] = hits + 1
	}
}

// victim returns the least used key of a sample of the map. The caller
// holds p.mu.
func (p *policy) victim() uint64 {
	var victim uint64
	minHits := int32(-1)
	n := 0
	for key, hits := range p.keyHits {
		if minHits < 0 || hits < minHits {
			victim, minHits = key, hits
		}
		n++
		if n >= p.sample {
			break
		}
	}
	return victim
}

// Add admits key, evicting a sampled victim when the policy is full.
func (p *policy) Add(key uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.keyHits[key]; ok {
		return
	}
	if len(p.keyHits) >= p.maxItems {
		delete(p.keyHits, p.victim())
	}
	p.keyHits[key] = 0
}

// Has reports whether key is admitted.
func (p *policy) Has(key uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.keyHits[key]
	return ok
}

// run admits a hot key (1) and a cold one (2), then uses the hot key in
// one goroutine while the other admits a third key.
func run(sample int) *policy {
	p := newPolicy(2, sample)
	p.Add(1)
	p.Add(2)
	p.Access(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.Access(1)
	}()
	go func() {
		defer wg.Done()
		p.Add(3)
	}()
	wg.Wait()
	return p
}

//fencecheck:system
func evictCold() {
	p := run(lfuSample)
	if !p.Has(1) || p.Has(2) || !p.Has(3) {
		panic("evicted the hot key")
	}
}

//fencecheck:system
func evictFirstSample() {
	p := run(1)
	if !p.Has(1) {
		panic("evicted the hot key") // want `^SC: system evictFirstSample is wrong even under sequential consistency: the panic is reached here`
	}
}
