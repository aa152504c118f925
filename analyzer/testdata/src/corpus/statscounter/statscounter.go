// Package statscounter follows the counters of github.com/uber-go/tally
// (built on go.uber.org/atomic-style atomic adds): Inc adds to the current
// total atomically, and the reporter's value() takes the delta since the
// last report by loading the total and the previous snapshot and storing the
// snapshot.
//
// Expected, by hand: reportDeltas is correct and race-free: the delta the
// reporter sees plus what it sees after wg.Wait add up to the two
// increments. lostIncrement increments with a load and a store instead of
// an atomic add: both can load 0 and store 1 (a lost update under
// sequential consistency, SC finding on the panic; every access is atomic,
// so no race).
package statscounter

import (
	"sync"
	"sync/atomic"
)

// counter is a monotonic counter reported as deltas.
type counter struct {
	prev int64
	curr int64
}

func (c *counter) Inc(v int64) {
	atomic.AddInt64(&c.curr, v)
}

func (c *counter) value() int64 {
	curr := atomic.LoadInt64(&c.curr)
	prev := atomic.LoadInt64(&c.prev)
	if prev == curr {
		return 0
	}
	atomic.StoreInt64(&c.prev, curr)
	return curr - prev
}

//fencecheck:system
func reportDeltas() {
	var c counter
	var first int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.Inc(1)
		wg.Done()
	}()
	go func() {
		c.Inc(1)
		first = c.value()
		wg.Done()
	}()
	wg.Wait()
	if first+c.value() != 2 {
		panic("lost a count")
	}
}

// incLoadStore increments in two steps.
func (c *counter) incLoadStore(v int64) {
	atomic.StoreInt64(&c.curr, atomic.LoadInt64(&c.curr)+v)
}

//fencecheck:system
func lostIncrement() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.incLoadStore(1)
			wg.Done()
		}()
	}
	wg.Wait()
	if c.value() != 2 {
		panic("lost a count") // want `^SC: system lostIncrement is wrong even under sequential consistency: `
	}
}
