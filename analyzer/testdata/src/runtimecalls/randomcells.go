package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// Random numbers kept in memory, in the style of xsync's striped Counter
// and RBMutex: a token keeps the stripe fastrand picked and each add masks
// it with the counter's mask, a field; a failed CAS picks again.

type token struct{ idx uint32 }

var tokens sync.Pool

type stripedCounter struct {
	stripes []int64
	mask    uint32
}

func (c *stripedCounter) add(d int64) {
	t, ok := tokens.Get().(*token)
	if !ok {
		t = new(token)
		t.idx = fastrand()
	}
	for {
		p := &c.stripes[t.idx&c.mask]
		v := atomic.LoadInt64(p)
		if atomic.CompareAndSwapInt64(p, v, v+d) {
			break
		}
		t.idx = fastrand()
	}
	tokens.Put(t)
}

// addNext is the reader slot's pick of RBMutex: the kept number plus the
// attempt, masked.
func (c *stripedCounter) addNext(d int64) {
	t := &token{idx: fastrand()}
	for i := range uint32(len(c.stripes)) {
		slot := t.idx + i
		p := &c.stripes[slot&c.mask]
		if v := atomic.LoadInt64(p); atomic.CompareAndSwapInt64(p, v, v+d) {
			t.idx = slot
			return
		}
	}
}

func (c *stripedCounter) value() int64 {
	var v int64
	for i := range c.stripes {
		v += atomic.LoadInt64(&c.stripes[i])
	}
	return v
}

// stripedCounterTotal adds from two goroutines on stripes they pick at
// random: the total is 2.
//
//fencecheck:system
func stripedCounterTotal() {
	c := &stripedCounter{stripes: make([]int64, 4), mask: 3}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.add(1)
	}()
	go func() {
		defer wg.Done()
		c.addNext(1)
	}()
	wg.Wait()
	if c.value() != 2 {
		panic("lost an increment")
	}
}

// stripedCounterLastStripe expects the last stripe never to be picked:
// the random number can pick it.
//
//fencecheck:system
func stripedCounterLastStripe() {
	c := &stripedCounter{stripes: make([]int64, 4), mask: 3}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.add(1)
	}()
	wg.Wait()
	if atomic.LoadInt64(&c.stripes[3]) != 0 {
		panic("last stripe used") // want `^SC: system stripedCounterLastStripe is wrong even under sequential consistency`
	}
}

// stripedCounterPlain adds without the CAS: two goroutines can pick one
// stripe.
//
//fencecheck:system
func stripedCounterPlain() {
	c := &stripedCounter{stripes: make([]int64, 2), mask: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			t := &token{idx: fastrand()}
			c.stripes[t.idx&c.mask]++ // want `^race: go@\d+ stores c.stripes\[0\] here while go@\d+#2 loads c.stripes\[0\]`
		}()
	}
	wg.Wait()
}
