package runtimecalls

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Edges of panics, recover and Goexit, each against what Go does.

// goexitStopsPanic: runtime.Goexit in a deferred call ends the goroutine
// and the panic with it; the later deferred Done still runs.
//
//fencecheck:system
func goexitStopsPanic() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { runtime.Goexit() }()
		panic("stopped by Goexit")
	}()
	wg.Wait()
}

// deferredGoexit: the same with runtime.Goexit deferred itself, and a
// recover deferred before it, which then finds no panic.
//
//fencecheck:system
func deferredGoexit() {
	var wg sync.WaitGroup
	var got atomic.Int32
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if recover() != nil {
				got.Store(1)
			}
		}()
		defer runtime.Goexit()
		panic("stopped by Goexit")
	}()
	wg.Wait()
	if got.Load() != 0 {
		panic("recovered a panic Goexit ended")
	}
}

// nestedRecoverKeepsOuter: a panic inside a deferred call, recovered
// there, leaves the panic that runs the call going: the outer recover gets
// it.
//
//fencecheck:system
func nestedRecoverKeepsOuter() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if recover() == nil {
				panic("lost the outer panic")
			}
		}()
		func() {
			defer func() {
				defer func() { recover() }()
				panic("inner")
			}()
			panic("outer")
		}()
	}()
	wg.Wait()
}

// nestedPanicUnrecovered: nothing recovers the outer panic (Go prints it,
// then the inner one its deferred call raises): the panic reported is the
// first.
//
//fencecheck:system
func nestedPanicUnrecovered() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		func() {
			defer func() {
				panic("inner")
			}()
			panic("outer") // want `^SC: system nestedPanicUnrecovered is wrong even under sequential consistency: the panic is reached here`
		}()
	}()
	wg.Wait()
}

// oncePanics: a Once whose function panics is done; the other goroutine's
// Do then runs nothing, and x stays 0 when the panicking one goes first.
//
//fencecheck:system
func oncePanics() {
	var once sync.Once
	var wg sync.WaitGroup
	var x atomic.Int32
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer func() { recover() }()
		once.Do(func() { panic("once") })
	}()
	go func() {
		defer wg.Done()
		once.Do(func() { x.Store(1) })
	}()
	wg.Wait()
	if x.Load() != 1 {
		panic("x unset") // want `^SC: system oncePanics is wrong even under sequential consistency: the panic is reached here`
	}
}

// oncePanicsAfterSet: both functions set x first.
//
//fencecheck:system
func oncePanicsAfterSet() {
	var once sync.Once
	var wg sync.WaitGroup
	var x atomic.Int32
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer func() { recover() }()
		once.Do(func() { x.Store(1); panic("once") })
	}()
	go func() {
		defer wg.Done()
		once.Do(func() { x.Store(1) })
	}()
	wg.Wait()
	if x.Load() != 1 {
		panic("x unset")
	}
}

// panicIsABarrier: Go's panic adds to an atomic counter before it runs
// the deferred calls (a locked instruction on amd64), so the store before
// it has left the store buffer when the deferred call loads: the races
// stand, and no barrier is reported.
//
//fencecheck:system
func panicIsABarrier() {
	var wg sync.WaitGroup
	x, y, r1, r2 := 0, 0, 0, 0
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer func() {
			recover()
			r1 = y // want `^race: go@\d+ loads y here while go@\d+ stores y`
		}()
		x = 1 // want `^race: go@\d+ stores x here while go@\d+ loads x`
		panic("a")
	}()
	go func() {
		defer wg.Done()
		defer func() {
			recover()
			r2 = x
		}()
		y = 1
		panic("b")
	}()
	wg.Wait()
	if r1 == 0 && r2 == 0 {
		panic("both zero")
	}
}
