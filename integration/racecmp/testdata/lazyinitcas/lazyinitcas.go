// Package lazyinitcas initialises a plain value once: the goroutine whose
// CompareAndSwap wins writes it and publishes it with an atomic store; the
// other waits for that store.
//
// Expected: race-free.
package lazyinitcas

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// once is 0 before, 1 during and 2 after the initialisation of value.
type once struct {
	state atomic.Int32
	value int32
}

// get initialises the value on first use and returns it.
func (o *once) get() int32 {
	if o.state.CompareAndSwap(0, 1) {
		o.value = 42
		o.state.Store(2)
	} else {
		for o.state.Load() != 2 {
			runtime.Gosched()
		}
	}
	return o.value
}

// system: two goroutines get the value.
//
//fencecheck:system
func system() {
	var o once
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			if o.get() != 42 {
				panic("saw the value before it was set")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
