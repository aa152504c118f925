// Package atomicflagdata publishes two plain values through a flag that is
// stored and loaded with the sync/atomic functions; the reader spins with
// runtime.Gosched.
//
// Expected: race-free.
package atomicflagdata

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// message is two plain values and an int32 flag accessed atomically.
type message struct {
	a, b  int32
	ready int32
}

// system: the flag orders the plain writes before the plain reads.
//
//fencecheck:system
func system() {
	var m message
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m.a = 1
		m.b = 2
		atomic.StoreInt32(&m.ready, 1)
		wg.Done()
	}()
	go func() {
		for atomic.LoadInt32(&m.ready) == 0 {
			runtime.Gosched()
		}
		if m.a+m.b != 3 {
			panic("data not visible after the flag")
		}
		wg.Done()
	}()
	wg.Wait()
}
