// Package labelindex follows the label index of a metrics registry, as
// prometheus/client_golang's metricVec keeps its children by hash: a map
// from metric name to a map of label values, the inner map made on first
// use; Observe inserts under the registry's lock, Count reads under it.
//
// Expected, by hand: observe is correct and race-free (every access to
// both maps holds the lock; each label is counted once, whatever the
// order). The mutant observeAfterUnlock looks the inner map up under the
// lock but inserts into it after the unlock, a lock scoped one statement
// too short: the two goroutines' inserts into the same inner map race
// (one finding, on that map).
package labelindex

import "sync"

// Registry keeps the label values seen per metric name.
type Registry struct {
	mu     sync.Mutex
	labels map[string]map[int32]bool
}

// New makes an empty registry.
func New() *Registry { return &Registry{labels: map[string]map[int32]bool{}} }

// Observe records the label value v of the metric name.
func (r *Registry) Observe(name string, v int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	set, ok := r.labels[name]
	if !ok {
		set = map[int32]bool{}
		r.labels[name] = set
	}
	set[v] = true
}

// ObserveAfterUnlock is Observe with the insert after the unlock.
func (r *Registry) ObserveAfterUnlock(name string, v int32) {
	r.mu.Lock()
	set, ok := r.labels[name]
	if !ok {
		set = map[int32]bool{}
		r.labels[name] = set
	}
	r.mu.Unlock()
	set[v] = true // want `^race: go@\d+ and go@\d+ can both reach this access \(it stores r.labels\["rpc"\]\) at once, and nothing orders the two \(system observeAfterUnlock\)`
}

// Count returns the number of label values of the metric name.
func (r *Registry) Count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.labels[name])
}

//fencecheck:system
func observe() {
	r := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.Observe("rpc", 1)
		r.Observe("db", 1)
		wg.Done()
	}()
	go func() {
		r.Observe("rpc", 2)
		r.Observe("rpc", 1)
		wg.Done()
	}()
	wg.Wait()
	if r.Count("rpc") != 2 || r.Count("db") != 1 {
		panic("a label lost or counted twice")
	}
}

//fencecheck:system
func observeAfterUnlock() {
	r := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.ObserveAfterUnlock("rpc", 1)
		wg.Done()
	}()
	go func() {
		r.ObserveAfterUnlock("rpc", 2)
		wg.Done()
	}()
	wg.Wait()
}
