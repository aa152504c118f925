// Package mapsys has systems over maps: correct ones (a map guarded by a
// mutex, a map the set-up fills and the goroutines only read, a range
// whose every order gives the same answer) and buggy ones (unguarded
// writes, a write to a nil map, an outcome that depends on the order of a
// range).
package mapsys

import (
	"sync"
	"sync/atomic"
)

// cache is a map guarded by a mutex, as caches are written.
type cache struct {
	mu    sync.Mutex
	items map[string]int32
}

func (c *cache) set(k string, v int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
}

func (c *cache) get(k string) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	return v, ok
}

func (c *cache) del(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.items, k)
}

// guardedCache: two goroutines set, get and delete under the mutex.
//
//fencecheck:system
func guardedCache() {
	c := &cache{items: map[string]int32{"x": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.set("a", 2)
		c.del("x")
		wg.Done()
	}()
	go func() {
		if v, ok := c.get("a"); ok && v != 2 {
			panic("a torn value")
		}
		if _, ok := c.get("x"); !ok {
			c.set("b", 3)
		}
		wg.Done()
	}()
	wg.Wait()
	if v, _ := c.get("a"); v != 2 {
		panic("lost a")
	}
	if _, ok := c.get("x"); ok {
		panic("x still there")
	}
}

// rwCache: readers under RLock, a writer under Lock.
//
//fencecheck:system
func rwCache() {
	var mu sync.RWMutex
	m := map[int]bool{}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		mu.Lock()
		m[1] = true
		mu.Unlock()
		wg.Done()
	}()
	for range 2 {
		go func() {
			mu.RLock()
			_ = m[1] || len(m) > 1
			mu.RUnlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if !m[1] {
		panic("lost the write")
	}
}

// readOnly: the set-up fills the map; the goroutines only read it, with
// keys they compute.
//
//fencecheck:system
func readOnly() {
	prices := map[string]int32{"tea": 2, "coffee": 3}
	names := [2]string{"tea", "coffee"}
	var total [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			if p, ok := prices[names[i]]; ok {
				total[i] = p
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if total[0]+total[1] != 5 {
		panic("wrong total")
	}
}

// rangeSum: every order of the range gives the same sum.
//
//fencecheck:system
func rangeSum() {
	var mu sync.Mutex
	m := map[string]int32{"a": 1, "b": 2, "c": 4}
	var sum int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		mu.Lock()
		for k, v := range m {
			sum += v
			delete(m, k)
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if sum != 7 || len(m) != 0 {
		panic("wrong sum")
	}
}

// concurrentWrites: two goroutines write one map with no lock: Go's
// "concurrent map writes", whatever the keys.
//
//fencecheck:system
func concurrentWrites() {
	m := map[string]int32{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m["a"] = 1 // want `^race: go@\d+ stores m\S* here while go@\d+ stores m\S* at mapsys.go:\d+:\d+, and nothing orders the two \(system concurrentWrites\)`
		wg.Done()
	}()
	go func() {
		m["b"] = 2
		wg.Done()
	}()
	wg.Wait()
}

// readWhileWrite: a lookup of one key while another is written.
//
//fencecheck:system
func readWhileWrite() {
	m := map[int]int32{1: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		m[2] = 2 // want `^race: go@\d+ stores m here while main loads m`
		wg.Done()
	}()
	if m[1] != 1 {
		panic("lost 1")
	}
	wg.Wait()
}

// nilWrite: a goroutine writes to a map nobody made.
//
//fencecheck:system
func nilWrite() {
	var counts map[string]int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		counts["a"]++ // want `^SC: system nilWrite is wrong even under sequential consistency: the bad state assignment to entry in nil map is reached here`
		wg.Done()
	}()
	wg.Wait()
}

// rangeOrder: the value a range sees first depends on the order.
//
//fencecheck:system
func rangeOrder() {
	m := map[string]int32{"a": 1, "b": 2}
	var first int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for _, v := range m {
			first = v
			break
		}
		wg.Done()
	}()
	wg.Wait()
	if first != 1 {
		panic("b came first") // want `^SC: system rangeOrder is wrong even under sequential consistency: the panic is reached here`
	}
}

func (c *cache) flush() {
	c.mu.Lock()
	c.items = map[string]int32{} // want `^race: go@\d+ stores c.items here while main loads c.items at mapsys.go:\d+:\d+, and nothing orders the two \(system flushRace\)`
	c.mu.Unlock()
}

func (c *cache) peek(k string) bool {
	_, ok := c.items[k]
	return ok
}

// flushed: Flush swaps in a new map under the lock while another
// goroutine sets and gets.
//
//fencecheck:system
func flushed() {
	c := &cache{items: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.flush()
		wg.Done()
	}()
	go func() {
		c.set("b", 2)
		if v, ok := c.get("b"); ok && v != 2 {
			panic("b torn")
		}
		wg.Done()
	}()
	wg.Wait()
	if _, ok := c.get("a"); ok {
		panic("a survived the flush")
	}
}

// flushRace: a peek without the lock while Flush swaps the map.
//
//fencecheck:system
func flushRace() {
	c := &cache{items: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.flush()
		wg.Done()
	}()
	_ = c.peek("a")
	wg.Wait()
}

// counterKeys: the keys come from a counter that nothing bounds: the
// model keeps no slot for them, and says so.
//
//fencecheck:system
func counterKeys() { // want `^inconclusive: system counterKeys: the count of keys inserted into seen other than the 0 that fencecheck keeps for it`
	var mu sync.Mutex
	seen := map[int32]bool{}
	done := make(chan struct{})
	go func() {
		for i := int32(0); ; i++ {
			mu.Lock()
			seen[i] = true
			n := len(seen)
			mu.Unlock()
			if n > 3 {
				break
			}
		}
		close(done)
	}()
	<-done
}

// tooMany: more keys than the model keeps.
//
//fencecheck:system
func tooMany() {
	squares := map[int]int{}
	for i := range 70 {
		squares[i] = i * i // want `^unsupported in a fencecheck system: more than 64 keys in the map squares`
	}
	go func() { _ = squares[3] }()
}

// registry makes its map on first use.
type registry struct {
	mu sync.Mutex
	m  map[string]int32
}

func (r *registry) put(k string, v int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.m // want `^race: go@\d+ loads r.m here while go@\d+ stores r.m at mapsys.go:\d+:\d+, and nothing orders the two \(system lazyRace\)`
	if m == nil {
		m = make(map[string]int32)
		r.m = m
	}
	m[k] = v
}

// lazyInit: whichever goroutine puts first makes the map.
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
		r.put("b", 2)
		wg.Done()
	}()
	wg.Wait()
	if r.m["a"] != 1 || r.m["b"] != 2 {
		panic("lost a put")
	}
}

// lazyRace: one goroutine makes the map without the lock.
//
//fencecheck:system
func lazyRace() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.put("a", 1)
		wg.Done()
	}()
	go func() {
		if r.m == nil {
			r.m = map[string]int32{}
		}
		r.m["b"] = 2
		wg.Done()
	}()
	wg.Wait()
}

// index keeps a list of values per key, as an inverted index or a
// registry of handlers per name does: a map of slices grown by append.
type index struct {
	mu   sync.Mutex
	byID map[string][]int32
}

func (x *index) add(k string, v int32) {
	x.mu.Lock()
	x.byID[k] = append(x.byID[k], v)
	x.mu.Unlock()
}

// addSplit reads the list under the lock and stores it back under it
// again: two goroutines that interleave lose an append.
func (x *index) addSplit(k string, v int32) {
	x.mu.Lock()
	l := x.byID[k]
	x.mu.Unlock()
	l = append(l, v)
	x.mu.Lock()
	x.byID[k] = l
	x.mu.Unlock()
}

// sliceValues: two goroutines append to one key's list under the mutex
// and one to another key's; every append is kept.
//
//fencecheck:system
func sliceValues() {
	x := &index{byID: map[string][]int32{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x.add("a", 1)
		wg.Done()
	}()
	go func() {
		x.add("a", 2)
		x.add("b", 3)
		wg.Done()
	}()
	wg.Wait()
	var sum int32
	for _, v := range x.byID["a"] {
		sum += v
	}
	if len(x.byID["a"]) != 2 || sum != 3 || x.byID["b"][0] != 3 {
		panic("lost an append")
	}
}

// lostAppend: the twin whose read-modify-write spans two critical
// sections.
//
//fencecheck:system
func lostAppend() {
	x := &index{byID: map[string][]int32{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x.addSplit("a", 1)
		wg.Done()
	}()
	go func() {
		x.addSplit("a", 2)
		wg.Done()
	}()
	wg.Wait()
	if len(x.byID["a"]) != 2 {
		panic("lost an append") // want `^SC: system lostAppend is wrong even under sequential consistency: the panic is reached here`
	}
}

// sets keeps a set per name: a map of maps, the inner one made on first
// use, as labels per metric name are kept.
type sets struct {
	mu sync.Mutex
	m  map[string]map[int32]bool
}

func (s *sets) put(name string, v int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.m[name]
	if !ok {
		in = map[int32]bool{}
		s.m[name] = in
	}
	in[v] = true
}

// putOutside inserts into the inner map after the unlock.
func (s *sets) putOutside(name string, v int32) {
	s.mu.Lock()
	in, ok := s.m[name]
	if !ok {
		in = map[int32]bool{}
		s.m[name] = in
	}
	s.mu.Unlock()
	in[v] = true // want `^race: go@\d+ and go@\d+ can both reach this access \(it stores s.m\["a"\]\) at once, and nothing orders the two \(system nestedRace\)`
}

// nestedMaps: two goroutines put into one name's set, one into another
// name the set-up made and into a third.
//
//fencecheck:system
func nestedMaps() {
	s := &sets{m: map[string]map[int32]bool{"b": {}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.put("a", 1)
		wg.Done()
	}()
	go func() {
		s.put("a", 2)
		s.put("b", 3)
		s.put("c", 4) // a second run of the make: a map of its own
		wg.Done()
	}()
	wg.Wait()
	if len(s.m["a"]) != 2 || !s.m["b"][3] || len(s.m["c"]) != 1 {
		panic("lost a put")
	}
}

// nestedRace: the twin that writes the inner map unguarded.
//
//fencecheck:system
func nestedRace() {
	s := &sets{m: map[string]map[int32]bool{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.putOutside("a", 1)
		wg.Done()
	}()
	go func() {
		s.putOutside("a", 2)
		wg.Done()
	}()
	wg.Wait()
}

// pair holds two maps a goroutine makes with one helper.
type pair struct {
	mu   sync.Mutex
	a, b map[string]int32
}

func freshMap() map[string]int32 { return map[string]int32{} }

// twoMakes: one make run twice makes two maps; filling one leaves the
// other empty.
//
//fencecheck:system
func twoMakes() {
	p := &pair{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		p.mu.Lock()
		p.a = freshMap()
		p.b = freshMap()
		p.a["x"] = 1
		p.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if len(p.b) != 0 || len(p.a) != 1 {
		panic("one map for two makes")
	}
}

// service is one of the services a supervisor starts, one goroutine each.
type service struct {
	name string
	runs int32
}

// startAll: the set-up ranges over its services and starts a goroutine
// per service, as supervisors and servers start their listeners; every
// order of the range starts each service once.
//
//fencecheck:system
func startAll() {
	services := map[string]*service{"a": {name: "a"}, "b": {name: "b"}}
	var mu sync.Mutex
	started := 0
	var wg sync.WaitGroup
	for _, s := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			s.runs++
			started++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if started != 2 || services["a"].runs != 1 || services["b"].runs != 1 {
		panic("a service ran twice or never")
	}
}

// startOrder: the twin that expects the services to start in the order
// of their names.
//
//fencecheck:system
func startOrder() {
	services := map[string]*service{"a": {name: "a"}, "b": {name: "b"}}
	var mu sync.Mutex
	first := ""
	var wg sync.WaitGroup
	for name := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			if first == "" {
				first = name
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first != "a" {
		panic("b started first") // want `^SC: system startOrder is wrong even under sequential consistency: the panic is reached here`
	}
}

// startRace: the services add their ports to a total without the mutex.
//
//fencecheck:system
func startRace() {
	ports := map[string]int32{"http": 80, "https": 443}
	var total int32
	var wg sync.WaitGroup
	for _, p := range ports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total += p // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores total\) at once, and nothing orders the two \(system startRace\)`
		}()
	}
	wg.Wait()
}

// statusText is a lookup table of more than 16 keys that the package's
// initialisation fills, as net/http's status texts are.
var statusText = map[int32]string{
	200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
	301: "Moved Permanently", 302: "Found", 304: "Not Modified",
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
	405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 429: "Too Many Requests",
	500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
}

// lookupTable: two goroutines look codes up in the table while a third
// counts the misses under a mutex.
//
//fencecheck:system
func lookupTable() {
	var mu sync.Mutex
	misses := 0
	var wg sync.WaitGroup
	codes := []int32{404, 418}
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if statusText[codes[i]] == "" {
				mu.Lock()
				misses++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if misses != 1 || len(statusText) != 18 {
		panic("a teapot in the table")
	}
}

// holder keeps a map made on first use, published through an atomic
// pointer.
type holder struct {
	mu    sync.Mutex
	items map[string]int32
}

// mapThroughPointer: a goroutine gives r1 its map and publishes r1; the
// other loads the published pointer, one of two holders, and finds the
// map through it.
//
//fencecheck:system
func mapThroughPointer() {
	r1, r2 := &holder{}, &holder{}
	var pub atomic.Pointer[holder]
	pub.Store(r2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r1.mu.Lock()
		r1.items = map[string]int32{"a": 1}
		r1.mu.Unlock()
		pub.Store(r1)
		wg.Done()
	}()
	go func() {
		r := pub.Load()
		r.mu.Lock()
		if r == r1 && len(r.items) != 1 {
			panic("r1 without its map")
		}
		r.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// registryOf is built as constructors build their values: a composite
// literal with a mutex, a map and a function, copied into the variable
// whose address the constructor returns.
type registryOf struct {
	mu    sync.Mutex
	items map[string]int32
	onAdd func(int32) int32
}

func twice(x int32) int32 { return 2 * x }

func newRegistryOf() *registryOf {
	res := registryOf{items: map[string]int32{}, onAdd: twice}
	return &res
}

func (r *registryOf) add(k string, v int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items[k] = r.onAdd(v)
}

// builtInGoroutine: a goroutine builds a registry, adds to it and hands
// it over; the other adds too and finds both.
//
//fencecheck:system
func builtInGoroutine() {
	var pub atomic.Pointer[registryOf]
	ready, done := make(chan bool), make(chan bool)
	go func() {
		r := newRegistryOf()
		r.add("a", 2)
		pub.Store(r)
		ready <- true
	}()
	go func() {
		<-ready
		r := pub.Load()
		r.add("b", 3)
		if r.items["a"] != 4 || r.items["b"] != 6 {
			panic("lost an add")
		}
		done <- true
	}()
	<-done
}

// keyed lists its keys under a deferred unlock, as registries' Keys and
// List methods do: the slice grown by append is the function's result,
// which go/ssa keeps in a result slot because of the defer.
type keyed struct {
	mu sync.Mutex
	m  map[string]int32
}

func (k *keyed) keys() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for name := range k.m {
		out = append(out, name)
	}
	return out
}

func (k *keyed) keysUnlocked() []string {
	defer func() {}()
	var out []string
	for name := range k.m { // want `^race: go@\d+ loads k.m here while go@\d+ stores k.m at mapsys.go:\d+:\d+, and nothing orders the two \(system keysRace\)`
		out = append(out, name)
	}
	return out
}

// keysSnapshot: one goroutine adds a key while another lists them: one or
// two keys.
//
//fencecheck:system
func keysSnapshot() {
	k := &keyed{m: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		k.mu.Lock()
		k.m["b"] = 2
		k.mu.Unlock()
		wg.Done()
	}()
	go func() {
		if n := len(k.keys()); n != 1 && n != 2 {
			panic("a torn listing")
		}
		wg.Done()
	}()
	wg.Wait()
	if len(k.keys()) != 2 {
		panic("lost a key")
	}
}

// keysRace: the listing without the lock.
//
//fencecheck:system
func keysRace() {
	k := &keyed{m: map[string]int32{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		k.mu.Lock()
		k.m["b"] = 2
		k.mu.Unlock()
		wg.Done()
	}()
	go func() {
		_ = k.keysUnlocked()
		wg.Done()
	}()
	wg.Wait()
}
