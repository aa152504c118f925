// Package hygieneanywhere is run with barriers allowed anywhere: a
// //fencecheck:nofence on a statement without a plain store keeps a barrier
// away from it then, so it is not unused; one on a statement no goroutine
// runs still is.
package hygieneanywhere

import (
	"sync"
	"sync/atomic"
)

func helper(x int32) int32 {
	//fencecheck:nofence // want `^unused //fencecheck:nofence: no goroutine of any system runs the statement it marks$`
	x++
	return x
}

// publish hands data over with an atomic flag: correct on x86-TSO.
//
//fencecheck:system
func publish() {
	var flag, data int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		data = 1
		//fencecheck:nofence
		atomic.StoreInt32(&flag, 1)
		wg.Done()
	}()
	for atomic.LoadInt32(&flag) == 0 {
	}
	if data != 1 {
		panic("stale data")
	}
	wg.Wait()
}
