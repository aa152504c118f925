package goints

import (
	"runtime"
	"sync/atomic"
)

// A spin lock with exponential backoff in the style of ants' spinLock:
// between two failed compare-and-swaps it yields backoff times, and
// doubles backoff up to a maximum. The loop counter is bounded by a
// register, backoff, which its own guard bounds: no //fencecheck:range
// is needed for the exact engines to decide the systems.

const maxBackoff = 4

type backoffLock uint32

func (l *backoffLock) lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < maxBackoff {
			backoff <<= 1
		}
	}
}

func (l *backoffLock) unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// backoffCounter: two goroutines count under the lock: correct.
//
//fencecheck:system
func backoffCounter() {
	var l backoffLock
	var n int32
	done := make(chan bool)
	for range 2 {
		go func() {
			l.lock()
			n++
			l.unlock()
			done <- true
		}()
	}
	<-done
	<-done
	if n != 2 {
		panic("lost update")
	}
}

// backoffEarlyUnlock releases the lock before it counts.
//
//fencecheck:system
func backoffEarlyUnlock() {
	var l backoffLock
	var n int32
	done := make(chan bool)
	for range 2 {
		go func() {
			l.lock()
			l.unlock()
			n++
			done <- true
		}()
	}
	<-done
	<-done
	if n != 2 {
		panic("lost update") // want `^SC: system backoffEarlyUnlock is wrong even under sequential consistency: the panic is reached here`
	}
}
