// Package filterlockatomic is the filter lock of package filterlock with
// every shared access atomic: race-free, and correct under the Go memory
// model and x86-TSO (atomic stores are XCHG on amd64).
package filterlockatomic

import (
	"runtime"
	"sync"
	"sync/atomic"
)

const n = 3

// Filter is the filter lock on atomics.
type Filter struct {
	level  [n]atomic.Int32
	victim [n]atomic.Int32
}

// Lock enters the critical section as goroutine me.
func (f *Filter) Lock(me int) {
	for l := int32(1); l < n; l++ {
		f.level[me].Store(l)
		f.victim[l].Store(int32(me))
		for f.victim[l].Load() == int32(me) && f.othersAt(me, l) {
			runtime.Gosched()
		}
	}
}

func (f *Filter) othersAt(me int, l int32) bool {
	for k := range n {
		if k != me && f.level[k].Load() >= l {
			return true
		}
	}
	return false
}

// Unlock leaves the critical section as goroutine me.
func (f *Filter) Unlock(me int) {
	f.level[me].Store(0)
}

//fencecheck:system
func filterSystem() {
	var f Filter
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func(me int) {
			f.Lock(me)
			//fencecheck:critical
			f.Unlock(me)
			wg.Done()
		}(i)
	}
	wg.Wait()
}
