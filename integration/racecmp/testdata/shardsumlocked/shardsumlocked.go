// Package shardsumlocked has a counter split in shards held by an array of
// pointers, in the style of concurrent-map libraries (orcaman's
// concurrent-map): writers lock the shard a key picks, and the total ranges
// over a copy of the array and locks each shard it reads.
//
// Expected: race-free.
package shardsumlocked

import "sync"

type shard struct {
	mu sync.Mutex
	n  int
}

type counter struct {
	shards [4]*shard
}

func newCounter() *counter {
	c := &counter{}
	for i := range c.shards {
		c.shards[i] = &shard{}
	}
	return c
}

func (c *counter) inc(key int) {
	s := c.shards[key%len(c.shards)]
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (c *counter) total() int {
	t := 0
	for _, s := range c.shards {
		s.mu.Lock()
		t += s.n
		s.mu.Unlock()
	}
	return t
}

// system: two writers and a reader that totals while they write.
//
//fencecheck:system
func system() {
	c := newCounter()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.inc(i + 1)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if c.total() > 2 {
			panic("counted a write twice")
		}
	}()
	wg.Wait()
}
