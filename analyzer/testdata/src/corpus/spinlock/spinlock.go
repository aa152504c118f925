// Package spinlock follows github.com/tidwall/spinlock: a Locker on one
// word, Lock spinning on CompareAndSwap from 0 to 1 with runtime.Gosched
// between attempts, Unlock an atomic store of 0.
//
// Expected, by hand: spinCounter is correct and race-free. plainUnlock
// releases the lock with a plain store, as a hand-written spin lock often
// does: on amd64 that store is a MOV and the lock still works (TSO keeps
// the counter's store before it), but under the Go memory model it races
// with the CAS of the other goroutine (race finding on the CAS), and since
// a plain store orders nothing under that model, the counter's increments
// race too (race finding on n++).
package spinlock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Locker is a spin lock.
type Locker struct {
	lock uintptr
}

func (l *Locker) Lock() {
	for !atomic.CompareAndSwapUintptr(&l.lock, 0, 1) {
		runtime.Gosched()
	}
}

func (l *Locker) Unlock() {
	atomic.StoreUintptr(&l.lock, 0)
}

//fencecheck:system
func spinCounter() {
	var l Locker
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			l.Lock()
			n++
			l.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// plainLocker releases with a plain store.
type plainLocker struct {
	lock uintptr
}

func (l *plainLocker) Lock() {
	for !atomic.CompareAndSwapUintptr(&l.lock, 0, 1) { // want `^race: go@\d+#2 atomically updates l\.lock here`
		runtime.Gosched()
	}
}

func (l *plainLocker) Unlock() {
	l.lock = 0
}

//fencecheck:system
func plainUnlock() {
	var l plainLocker
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			l.Lock()
			n++ // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\)`
			l.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}
