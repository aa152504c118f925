// Package mpatomic is the message-passing litmus shape with the
// sync/atomic functions on int32 variables.
//
// Expected: race-free.
package mpatomic

import (
	"sync"
	"sync/atomic"
)

// system: the writer stores data then flag; the reader loads flag then
// data.
//
//fencecheck:system
func system() {
	var data, flag, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.StoreInt32(&data, 1)
		atomic.StoreInt32(&flag, 1)
		wg.Done()
	}()
	go func() {
		r0 = atomic.LoadInt32(&flag)
		r1 = atomic.LoadInt32(&data)
		wg.Done()
	}()
	wg.Wait()
	if r0 == 1 && r1 == 0 {
		panic("flag seen before data")
	}
}
