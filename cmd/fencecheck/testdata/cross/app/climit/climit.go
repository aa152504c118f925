// Package climit reads a variable of a package that uses cgo.
package climit

import (
	"sync"
	"sync/atomic"

	"example.com/dep/cvals"
)

// bounded stays within a limit that C code computes: its value is not
// known, so the system is refused where it reads it.
//
//fencecheck:system
func bounded() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() { n.Add(1); wg.Done() }()
	}
	wg.Wait()
	if n.Load() > cvals.Max {
		panic("over the limit")
	}
}
