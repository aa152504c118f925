// Package once follows Go's sync.Once: an atomic done word checked on the
// fast path, a mutex and a second check on the slow path, and done set by a
// deferred atomic store only after f returned. The broken mutant is the
// implementation that sync.Once's own documentation warns against: a
// compare-and-swap on done before calling f.
//
// Expected, by hand: onceDo is correct and race-free (a goroutine reads cfg
// only after Do returned, which is after an atomic load of done saw 1, and
// the store of 1 comes after f's store to cfg). casOnceDo lets the loser of
// the CAS return while the winner is still inside f: it reads cfg while the
// winner stores it (race on cfg) and can see 0 (SC finding on the panic).
package once

import (
	"sync"
	"sync/atomic"
)

// Once runs a function once.
type Once struct {
	done atomic.Uint32
	m    sync.Mutex
}

func (o *Once) Do(f func()) {
	if o.done.Load() == 0 {
		o.doSlow(f)
	}
}

func (o *Once) doSlow(f func()) {
	o.m.Lock()
	defer o.m.Unlock()
	if o.done.Load() == 0 {
		defer o.done.Store(1)
		f()
	}
}

//fencecheck:system
func onceDo() {
	var o Once
	var cfg int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			o.Do(func() { cfg = 42 })
			if cfg != 42 {
				panic("Do returned before f ran")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// casOnce is the "obvious" Once: whoever wins the CAS runs f, the others
// return at once.
type casOnce struct {
	done atomic.Uint32
}

func (o *casOnce) Do(f func()) {
	if o.done.CompareAndSwap(0, 1) {
		f()
	}
}

//fencecheck:system
func casOnceDo() {
	var o casOnce
	var cfg int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			o.Do(func() { cfg = 42 }) // want `^race: go@\d+ stores cfg here`
			if cfg != 42 {
				panic("Do returned before f ran") // want `^SC: system casOnceDo is wrong even under sequential consistency: `
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
