// Package stripe is a striped counter in the style of
// github.com/puzpuzpuz/xsync's Counter: a power-of-two array of stripes
// sized with math/bits, each add on a stripe a random number picks, the
// random number the run time's, reached with //go:linkname.
package stripe

import (
	"math/bits"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

//go:linkname cheaprand runtime.cheaprand
func cheaprand() uint32

// nextPowOf2 returns the smallest power of two not below v.
func nextPowOf2(v uint64) uint64 {
	if v <= 1 {
		return 1
	}
	return 1 << bits.Len64(v-1)
}

type cstripe struct {
	c int64
}

// Counter is an int64 counter striped over a power of two of stripes.
type Counter struct {
	stripes []cstripe
	mask    uint32
}

// New returns a counter of at least n stripes.
func New(n int) *Counter {
	k := nextPowOf2(uint64(n))
	return &Counter{stripes: make([]cstripe, k), mask: uint32(k - 1)}
}

// Add adds d on a stripe the run time's random number picks.
func (c *Counter) Add(d int64) {
	s := &c.stripes[(cheaprand()&3)&c.mask]
	atomic.AddInt64(&s.c, d)
}

// AddPlain is Add with a plain read-modify-write: two goroutines that pick
// the same stripe race.
func (c *Counter) AddPlain(d int64) {
	s := &c.stripes[(cheaprand()&3)&c.mask]
	s.c += d
}

// Value sums the stripes.
func (c *Counter) Value() int64 {
	v := int64(0)
	for i := range c.stripes {
		v += atomic.LoadInt64(&c.stripes[i].c)
	}
	return v
}
