// Package mutexfast follows the fast and slow paths of Go's sync.Mutex
// (one state word, mutexLocked its low bit, a CompareAndSwapInt32 from 0 on
// the fast path, a spin that tests the bit and sets it with another CAS on
// the slow path, an atomic add of -mutexLocked to unlock, and the "unlock
// of unlocked mutex" check), without the starvation mode and semaphore.
//
// Expected, by hand: lockedCounter is correct and race-free (every change
// of state is a CAS or an atomic add, so only one goroutine takes the bit).
// storeNotCAS sets the bit in the slow path with a load and a store instead
// of a CAS: a slow-path goroutine that saw the lock free can store after
// the other goroutine took it again on its fast path, and both run n++ at
// once, and both unlock: the state word goes to -1 (range finding on the
// unlock's atomic add, under sequential consistency), and n races (the two
// n++ run with nothing ordering them). The range directive
// bounds the state word; without it the state is unbounded and the
// predicate engine runs over the budget (see docs/evidence.md).
package mutexfast

import (
	"runtime"
	"sync"
	"sync/atomic"
)

const mutexLocked = 1

// Mutex is a spinning mutual exclusion lock.
type Mutex struct {
	state int32 //fencecheck:range 0..1 // the locked bit; no waiter counts here
}

func (m *Mutex) Lock() {
	if atomic.CompareAndSwapInt32(&m.state, 0, mutexLocked) {
		return
	}
	m.lockSlow()
}

func (m *Mutex) lockSlow() {
	for {
		old := atomic.LoadInt32(&m.state)
		if old&mutexLocked == 0 && atomic.CompareAndSwapInt32(&m.state, old, old|mutexLocked) {
			return
		}
		runtime.Gosched()
	}
}

func (m *Mutex) Unlock() {
	new := atomic.AddInt32(&m.state, -mutexLocked)
	if (new+mutexLocked)&mutexLocked == 0 {
		panic("sync: unlock of unlocked mutex")
	}
}

//fencecheck:system
func lockedCounter() {
	var mu Mutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			mu.Lock()
			n++
			mu.Unlock()
		}
		wg.Done()
	}()
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if n != 3 {
		panic("lost update")
	}
}

// brokenMutex sets the bit in its slow path without a CAS.
type brokenMutex struct {
	state int32 //fencecheck:range 0..1
}

func (m *brokenMutex) Lock() {
	if atomic.CompareAndSwapInt32(&m.state, 0, mutexLocked) {
		return
	}
	for {
		old := atomic.LoadInt32(&m.state)
		if old&mutexLocked == 0 {
			atomic.StoreInt32(&m.state, old|mutexLocked)
			return
		}
		runtime.Gosched()
	}
}

func (m *brokenMutex) Unlock() {
	atomic.AddInt32(&m.state, -mutexLocked) // want `^range: system storeNotCAS is wrong even under sequential consistency: mu\.state takes the value -1`
}

//fencecheck:system
func storeNotCAS() {
	var mu brokenMutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			mu.Lock()
			n++ // want `^race: go@111 stores n here while go@119 loads n at mutexfast.go:121:3, and nothing orders the two \(system storeNotCAS\)$`
			mu.Unlock()
		}
		wg.Done()
	}()
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if n != 3 {
		panic("lost update")
	}
}
