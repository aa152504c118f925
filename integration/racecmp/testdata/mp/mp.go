// Package mp is the message-passing litmus shape on plain int32 variables.
//
// Expected: racy.
package mp

import "sync"

// system: the writer stores data then flag; the reader loads flag then
// data.
//
//fencecheck:system
func system() {
	var data, flag, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		data = 1
		flag = 1
		wg.Done()
	}()
	go func() {
		r0 = flag
		r1 = data
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && r1 == 0 {
		panic("flag seen before data")
	}
}
