// Package rangeloop has a goroutine write a variable after a bounded
// range-over-int loop while the system function reads it.
//
// Expected: racy.
package rangeloop

import (
	"runtime"
	"sync"
)

// system: the write after the loop races with the read before wg.Wait.
//
//fencecheck:system
func system() {
	var x int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for range 2 {
			runtime.Gosched()
		}
		x = 1
		wg.Done()
	}()
	r := x
	wg.Wait()
	if r > 1 {
		panic("impossible value")
	}
}
