// Package relbound holds loops whose counters another register bounds.
package relbound

import (
	"runtime"
	"sync"
	"sync/atomic"
)

const maxBackoff = 16

type spinLock uint32

// Lock spins with exponential backoff, as ants' spinLock does: i counts
// up to backoff, which its own guard keeps at most maxBackoff.
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

func (sl *spinLock) Unlock() { atomic.StoreUint32((*uint32)(sl), 0) }

// backoff: two goroutines take the lock, through sync.Locker, and pick a
// capacity among many constants (as a pool sizes its queue), which the
// counters' widening passes through on its way up.
//
//fencecheck:system
func backoff() {
	var l sync.Locker = new(spinLock)
	var size atomic.Int32
	done := make(chan bool)
	for range 2 {
		go func() {
			l.Lock()
			switch size.Load() {
			case 0:
				size.Store(2)
			case 2:
				size.Store(3)
			case 3:
				size.Store(5)
			case 5:
				size.Store(7)
			case 7:
				size.Store(11)
			case 11:
				size.Store(13)
			case 13:
				size.Store(17)
			case 17:
				size.Store(19)
			case 19:
				size.Store(23)
			}
			l.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
}

// countdown counts down from a bound a register holds to 0.
//
//fencecheck:system
func countdown() {
	var n atomic.Int32
	done := make(chan bool)
	go func() {
		lim := 3
		if n.Load() > 0 {
			lim = 5
		}
		for j := lim; j > 0; j-- {
			runtime.Gosched()
		}
		done <- true
	}()
	n.Store(1)
	<-done
}

// addsBesideWorker: main adds to count three times, in a loop of constant
// bound, while a worker loops adding to spin until it is stopped: spin
// has no bound, count has.
//
//fencecheck:system
func addsBesideWorker() {
	var count, spin atomic.Int32
	stop := make(chan bool)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				if spin.Add(1) == 0 {
					panic("wrapped")
				}
			}
		}
	}()
	for range 3 {
		count.Add(1)
	}
	close(stop)
	if count.Load() != 3 {
		panic("lost")
	}
}
