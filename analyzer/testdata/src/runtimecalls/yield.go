package runtimecalls

import (
	"runtime"
	"sync"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// procyield is the run time's spin-wait, reached as low-level locks do.
//
//go:linkname procyield runtime.procyield
func procyield(cycles uint32)

// spinLock yields while it spins, in the manner of tidwall/spinlock: a
// compare-and-swap takes it.
type spinLock struct{ held atomic.Uint32 }

func (l *spinLock) lock() {
	for !l.held.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
}

func (l *spinLock) unlock() { l.held.Store(0) }

// spinYield counts under the spin lock.
//
//fencecheck:system
func spinYield() {
	var l spinLock
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			l.lock()
			n++
			l.unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// testThenSetLock looks before it takes: both goroutines can see it free.
type testThenSetLock struct{ held atomic.Uint32 }

func (l *testThenSetLock) lock() {
	for l.held.Load() != 0 {
		procyield(30)
	}
	l.held.Store(1)
}

// spinYieldWrong counts under the broken lock.
//
//fencecheck:system
func spinYieldWrong() {
	var l testThenSetLock
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			l.lock()
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\) at once`
			l.held.Store(0)
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update") // want `^SC: system spinYieldWrong is wrong even under sequential consistency`
	}
}
