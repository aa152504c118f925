// Package swaphandoff passes a plain value through an atomic.Swap: the
// consumer that swaps the flag back to 0 and sees 1 reads the value.
//
// Expected: race-free.
package swaphandoff

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// system: the producer publishes with Store, the consumer takes with Swap.
//
//fencecheck:system
func system() {
	var value int32
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		value = 9
		flag.Store(1)
		wg.Done()
	}()
	go func() {
		for flag.Swap(0) != 1 {
			runtime.Gosched()
		}
		if value != 9 {
			panic("value not visible after the swap")
		}
		wg.Done()
	}()
	wg.Wait()
}
