// Package randomstripe has a striped counter in the style of xsync's
// Counter: each add keeps the random stripe it picked in a token from a
// sync.Pool and masks it with the counter's mask, adding by CAS and picking
// again when the CAS fails.
//
// Expected: race-free.
package randomstripe

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

type token struct{ idx uint32 }

var tokens sync.Pool

type counter struct {
	stripes []int64
	mask    uint32
}

func (c *counter) add(d int64) {
	t, ok := tokens.Get().(*token)
	if !ok {
		t = new(token)
		t.idx = rand.Uint32()
	}
	for {
		p := &c.stripes[t.idx&c.mask]
		v := atomic.LoadInt64(p)
		if atomic.CompareAndSwapInt64(p, v, v+d) {
			break
		}
		t.idx = rand.Uint32()
	}
	tokens.Put(t)
}

func (c *counter) value() int64 {
	var v int64
	for i := range c.stripes {
		v += atomic.LoadInt64(&c.stripes[i])
	}
	return v
}

// system: two goroutines add one each.
//
//fencecheck:system
func system() {
	c := &counter{stripes: make([]int64, 2), mask: 1}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.add(1)
		}()
	}
	wg.Wait()
	if c.value() != 2 {
		panic("lost an increment")
	}
}
