// Package afterdone has a goroutine write a result after its wg.Done: the
// write is not ordered before the read that follows wg.Wait.
//
// Expected: racy.
package afterdone

import "sync"

// system: the goroutine signals completion before it writes.
//
//fencecheck:system
func system() {
	var result int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Done()
		result = 1
	}()
	wg.Wait()
	if result > 1 {
		panic("impossible result")
	}
}
