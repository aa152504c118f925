// Package randomstripeplain has a striped counter in the style of xsync's
// Counter: each add keeps the random stripe it picked in a token from a
// sync.Pool and masks it with the counter's mask, but it adds with a plain
// increment: two adds can pick one stripe.
//
// Expected: racy.
package randomstripeplain

import (
	"math/rand/v2"
	"sync"
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
	c.stripes[t.idx&c.mask] += d
	tokens.Put(t)
}

func (c *counter) value() int64 {
	var v int64
	for i := range c.stripes {
		v += c.stripes[i]
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
