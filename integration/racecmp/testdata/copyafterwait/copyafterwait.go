// Package copyafterwait copies a buffer only after its writer is done: the
// WaitGroup orders the writes before the copy.
//
// Expected: race-free.
package copyafterwait

import "sync"

// system: write, Done, Wait, then copy.
//
//fencecheck:system
func system() {
	buf := make([]int32, 2)
	out := make([]int32, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		buf[0], buf[1] = 3, 4
		wg.Done()
	}()
	wg.Wait()
	copy(out, buf)
	if out[0]+out[1] != 7 {
		panic("short copy")
	}
}
