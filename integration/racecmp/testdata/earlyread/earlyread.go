// Package earlyread has the system function read a goroutine's result
// before wg.Wait.
//
// Expected: racy.
package earlyread

import "sync"

// system: the read of result comes before the Wait that would order it.
//
//fencecheck:system
func system() {
	var result int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		result = 7
		wg.Done()
	}()
	r := result
	wg.Wait()
	if r != 0 && r != 7 {
		panic("impossible value")
	}
}
