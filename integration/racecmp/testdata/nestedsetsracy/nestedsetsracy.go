// Package nestedsetsracy keeps a set of label values per metric name in a
// map of maps, in the style of a metrics registry's label index: the inner
// set is made on first use and written after the registry's lock is
// released.
//
// Expected: racy.
package nestedsetsracy

import "sync"

type registry struct {
	mu     sync.Mutex
	labels map[string]map[int]bool
}

func (r *registry) observe(name string, v int) {
	r.mu.Lock()
	set, ok := r.labels[name]
	if !ok {
		set = map[int]bool{}
		r.labels[name] = set
	}
	r.mu.Unlock()
	set[v] = true
}

// system: two goroutines observe one metric, one of them another too.
//
//fencecheck:system
func system() {
	r := &registry{labels: map[string]map[int]bool{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.observe("a", 1); wg.Done() }()
	go func() { r.observe("a", 2); r.observe("b", 1); wg.Done() }()
	wg.Wait()
	if len(r.labels["a"]) != 2 || len(r.labels["b"]) != 1 {
		panic("lost a label")
	}
}
