// Package mapmutex guards a map with a mutex, the way a registry of
// handlers is written (net/http's ServeMux keeps its patterns so).
//
// Expected: race-free.
package mapmutex

import "sync"

type registry struct {
	mu       sync.Mutex
	handlers map[string]int
}

func (r *registry) register(name string, h int) {
	r.mu.Lock()
	r.handlers[name] = h
	r.mu.Unlock()
}

func (r *registry) lookup(name string) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.handlers[name]
	return h, ok
}

// system: one goroutine registers while another looks up.
//
//fencecheck:system
func system() {
	r := &registry{handlers: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.register("a", 1)
		wg.Done()
	}()
	go func() {
		if h, ok := r.lookup("a"); ok && h != 1 {
			panic("torn handler")
		}
		wg.Done()
	}()
	wg.Wait()
}
