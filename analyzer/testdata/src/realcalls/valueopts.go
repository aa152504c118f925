package realcalls

import "sync"

// Options passed by value and returned, in the style of
// jellydator/ttlcache's Get(key, opts...): the call site gives none, so
// the loop that applies them never runs and the struct is the cache's
// defaults.

type getOptions struct {
	touch   bool
	counted bool
}

type getOption interface {
	apply(getOptions) getOptions
}

type getOptionFunc func(getOptions) getOptions

func (f getOptionFunc) apply(o getOptions) getOptions { return f(o) }

func applyGetOptions(v getOptions, opts ...getOption) getOptions {
	for i := range opts {
		v = opts[i].apply(v)
	}
	return v
}

type optCache struct {
	mu       sync.Mutex
	defaults getOptions
	entries  map[string]int
	hits     int
	touches  int
}

func (c *optCache) get(key string, opts ...getOption) int {
	o := getOptions{touch: c.defaults.touch, counted: c.defaults.counted}
	o = applyGetOptions(o, opts...)
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries[key]
	if ok && o.counted {
		c.hits++
	}
	if ok && o.touch {
		c.touches++
	}
	return v
}

//fencecheck:system
func getWithoutOptions() {
	c := &optCache{defaults: getOptions{counted: true}, entries: map[string]int{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { c.get("a"); wg.Done() }()
	go func() { c.get("b"); wg.Done() }()
	wg.Wait()
	if c.hits != 1 || c.touches != 0 {
		panic("the defaults were not applied")
	}
}

//fencecheck:system
func getWithoutOptionsTwice() {
	c := &optCache{defaults: getOptions{counted: true}, entries: map[string]int{"a": 1}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { c.get("a"); wg.Done() }()
	go func() { c.get("a"); wg.Done() }()
	wg.Wait()
	if c.hits != 1 {
		panic("both hits counted") // want `^SC: system getWithoutOptionsTwice is wrong even under sequential consistency: the panic is reached here`
	}
}
