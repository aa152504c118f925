// Package cowroutes follows the copy-on-write tables of grpc-go's and
// Caddy's registries: the current routes are a map in an atomic.Value,
// readers Load it without a lock, and a writer copies it under a mutex,
// adds to the copy and Stores it.
//
// Expected, by hand: addRoutes is correct and race-free (a published map
// is never written again; the two writers' copies are serialised by the
// mutex, so both routes survive). The mutant addInPlace writes the
// published map itself, under the writers' mutex but not the readers':
// the reader's lookup races with the insert (one finding, on the map).
package cowroutes

import (
	"sync"
	"sync/atomic"
)

// Table is a copy-on-write map of routes to ports.
type Table struct {
	mu     sync.Mutex // serialises writers
	routes atomic.Value
}

// New makes a table with one route.
func New() *Table {
	t := &Table{}
	t.routes.Store(map[string]int32{"/": 80})
	return t
}

// Lookup returns the port of a route.
func (t *Table) Lookup(path string) int32 {
	m := t.routes.Load().(map[string]int32)
	return m[path] // want `^race: go@\d+ loads t\.routes\.Load\(\)\.\(map\[string\]int32\) here while go@\d+ stores t\.routes\.Load\(\)\.\(map\[string\]int32\) at cowroutes.go:\d+:\d+, and nothing orders the two \(system addInPlace\)`
}

// Add publishes a copy of the table with one more route.
func (t *Table) Add(path string, port int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.routes.Load().(map[string]int32)
	next := make(map[string]int32, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[path] = port
	t.routes.Store(next)
}

// AddInPlace writes the published table.
func (t *Table) AddInPlace(path string, port int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.routes.Load().(map[string]int32)[path] = port
}

//fencecheck:system
func addRoutes() {
	t := New()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		t.Add("/a", 8080)
		wg.Done()
	}()
	go func() {
		t.Add("/b", 8081)
		wg.Done()
	}()
	go func() {
		if t.Lookup("/") != 80 {
			panic("the root route lost")
		}
		wg.Done()
	}()
	wg.Wait()
	if t.Lookup("/a") != 8080 || t.Lookup("/b") != 8081 {
		panic("a route lost")
	}
}

//fencecheck:system
func addInPlace() {
	t := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		t.AddInPlace("/a", 8080)
		wg.Done()
	}()
	go func() {
		_ = t.Lookup("/")
		wg.Done()
	}()
	wg.Wait()
}
