// Package bitsstripe sizes an array of counters with math/bits and has
// two goroutines add to a stripe their index picks, one with a plain
// read-modify-write; the main goroutine sums a copy of the array.
//
// Expected: racy.
package bitsstripe

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

type counter struct {
	stripes [4]int64
	mask    uint64
}

// system: the second goroutine adds without an atomic operation.
//
//fencecheck:system
func system() {
	c := &counter{mask: 1<<bits.Len64(3-1) - 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.AddInt64(&c.stripes[5&c.mask], 1)
		wg.Done()
	}()
	go func() {
		c.stripes[9&c.mask]++
		wg.Done()
	}()
	wg.Wait()
	var total int64
	for _, s := range c.stripes {
		total += s
	}
	if total != 2 {
		panic("lost add")
	}
}
