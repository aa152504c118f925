// Package backoffspin follows the spin lock of
// github.com/panjf2000/ants (internal/sync/spinlock.go): a uint32 taken by
// CompareAndSwap from 0 to 1, with an exponential backoff between failed
// attempts that yields the processor with runtime.Gosched 1, 2, 4, ... up
// to maxBackoff times, released by an atomic store of 0, and handed out
// as a sync.Locker.
//
// Expected, by hand: lockedCount is correct and race-free: the CAS lets
// one goroutine at a time into the critical section, and the release
// store orders its increment before the next holder's. The mutant
// testThenSet waits (with the same backoff) until the word reads 0 and
// then stores 1: both goroutines can read 0 before either stores, and
// both are in the critical section (SC); their increments then race.
package backoffspin

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type spinLock uint32

const maxBackoff = 16

func (sl *spinLock) Lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < maxBackoff {
			backoff <<= 1
		}
	}
}

func (sl *spinLock) Unlock() {
	atomic.StoreUint32((*uint32)(sl), 0)
}

// NewSpinLock returns a spin lock.
func NewSpinLock() sync.Locker {
	return new(spinLock)
}

//fencecheck:system
func lockedCount() {
	lock := NewSpinLock()
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			lock.Lock()
			//fencecheck:critical
			n++
			lock.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost an increment")
	}
}

// splitLock tests and sets in two steps.
type splitLock uint32

func (sl *splitLock) Lock() {
	backoff := 1
	for atomic.LoadUint32((*uint32)(sl)) != 0 {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < maxBackoff {
			backoff <<= 1
		}
	}
	atomic.StoreUint32((*uint32)(sl), 1)
}

func (sl *splitLock) Unlock() {
	atomic.StoreUint32((*uint32)(sl), 0)
}

//fencecheck:system
func testThenSet() {
	var lock sync.Locker = new(splitLock)
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			lock.Lock()
			//fencecheck:critical
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\) at once, and nothing orders the two \(system testThenSet\)` `^SC: system testThenSet is wrong even under sequential consistency: goroutines go@\d+ and go@\d+#2 are both in the critical section here`
			lock.Unlock()
		}()
	}
	wg.Wait()
}
