// Package relay publishes plain data through two atomic flags, relayed by
// a goroutine that never touches the data: happens-before is transitive.
//
// Expected: race-free.
package relay

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// system: the writer raises f1, the relay waits for f1 and raises f2, the
// reader waits for f2 and reads the data.
//
//fencecheck:system
func system() {
	var data int32
	var f1, f2 atomic.Bool
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		data = 5
		f1.Store(true)
		wg.Done()
	}()
	go func() {
		for !f1.Load() {
			runtime.Gosched()
		}
		f2.Store(true)
		wg.Done()
	}()
	go func() {
		for !f2.Load() {
			runtime.Gosched()
		}
		if data != 5 {
			panic("data not visible through the relay")
		}
		wg.Done()
	}()
	wg.Wait()
}
