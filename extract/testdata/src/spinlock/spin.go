package spinlock

import (
	"runtime"
	"sync/atomic"
)

type spin struct{ state int32 }

func (s *spin) lock() {
	for !atomic.CompareAndSwapInt32(&s.state, 0, 1) {
		runtime.Gosched()
	}
}

func (s *spin) unlock() { atomic.StoreInt32(&s.state, 0) }

type typed struct{ state atomic.Bool }

func (s *typed) lock() {
	for !s.state.CompareAndSwap(false, true) {
	}
}

func (s *typed) unlock() { s.state.Store(false) }

//fencecheck:system
func spinLock() {
	var s spin
	for i := 0; i < 2; i++ {
		go func() {
			for {
				s.lock()
				//fencecheck:critical
				s.unlock()
			}
		}()
	}
}

//fencecheck:system
func typedSpinLock() {
	var s typed
	for i := 0; i < 2; i++ {
		go func() {
			for {
				s.lock()
				//fencecheck:critical
				s.unlock()
			}
		}()
	}
}
