// Package chain3 hands plain data along a chain of three goroutines, each
// link an atomic flag.
//
// Expected: race-free.
package chain3

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// relay holds the plain data and the two flags of the chain.
type relay struct {
	a, b   int32
	f1, f2 atomic.Bool
}

// system: the first goroutine writes a, the second reads a and writes b,
// the third reads both.
//
//fencecheck:system
func system() {
	var r relay
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		r.a = 1
		r.f1.Store(true)
		wg.Done()
	}()
	go func() {
		for !r.f1.Load() {
			runtime.Gosched()
		}
		r.b = r.a + 1
		r.f2.Store(true)
		wg.Done()
	}()
	go func() {
		for !r.f2.Load() {
			runtime.Gosched()
		}
		if r.a != 1 || r.b != 2 {
			panic("data not visible along the chain")
		}
		wg.Done()
	}()
	wg.Wait()
}
