// Package oncefuncs holds systems built on sync.OnceFunc, OnceValue and
// OnceValues, each beside a buggy twin.
package oncefuncs

import (
	"errors"
	"sync"
)

type config struct{ limit int }

// onceValueShared: every goroutine gets the one config the first call
// made; the run that made it is ordered before every call's return.
//
//fencecheck:system
func onceValueShared() {
	calls := 0
	get := sync.OnceValue(func() *config {
		calls++
		return &config{limit: 4}
	})
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if get().limit != 4 {
				panic("bad")
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if calls != 1 {
		panic("twice")
	}
}

// onceValueBypass is its buggy twin: a goroutine reads the counter the
// function writes without calling get.
//
//fencecheck:system
func onceValueBypass() {
	calls := 0
	get := sync.OnceValue(func() int {
		calls++ // want `^race: `
		return 42
	})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		_ = get()
		wg.Done()
	}()
	go func() {
		_ = calls
		wg.Done()
	}()
	wg.Wait()
}

// onceFuncInit: OnceFunc initialises a table that every goroutine reads
// after its call.
//
//fencecheck:system
func onceFuncInit() {
	var table [2]int
	setup := sync.OnceFunc(func() {
		table[0], table[1] = 1, 2
	})
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			setup()
			if table[i] != i+1 {
				panic("uninitialised")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// onceFuncLate is its buggy twin: the second goroutine reads the table
// before it calls setup.
//
//fencecheck:system
func onceFuncLate() {
	var table [2]int
	setup := sync.OnceFunc(func() {
		table[0], table[1] = 1, 2 // want `^race: `
	})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		setup()
		wg.Done()
	}()
	go func() {
		_ = table[1]
		setup()
		wg.Done()
	}()
	wg.Wait()
}

var errEmpty = errors.New("empty")

// onceValuesErr: OnceValues hands every caller the same value and error.
//
//fencecheck:system
func onceValuesErr() {
	n := 0
	load := sync.OnceValues(func() (int, error) {
		n++
		if n > 1 {
			return 0, errEmpty
		}
		return 7, nil
	})
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if v, err := load(); err != nil || v != 7 {
				panic("second run")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// onceValuesStale is its buggy twin: the function returns what a goroutine
// may not have written yet, so a caller may see the zero value.
//
//fencecheck:system
func onceValuesStale() {
	var mu sync.Mutex
	ready := 0
	load := sync.OnceValues(func() (int, error) {
		mu.Lock()
		defer mu.Unlock()
		if ready == 0 {
			return 0, errEmpty
		}
		return ready, nil
	})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		ready = 7
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		if _, err := load(); err != nil {
			panic("loaded too early") // want `^SC: system onceValuesStale is wrong even under sequential consistency`
		}
		wg.Done()
	}()
	wg.Wait()
}

// oncePanicRecovered: f panics; every call panics with its value, and a
// goroutine that recovers goes on: the Once is done, nobody waits forever.
//
//fencecheck:system
func oncePanicRecovered() {
	get := sync.OnceValue(func() int { panic("no value") })
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			defer func() {
				if recover() == nil {
					panic("no panic")
				}
			}()
			_ = get()
		}()
	}
	wg.Wait()
}

// oncePanicAgain is its buggy twin: the second caller expects the panic
// to have been the first caller's alone.
//
//fencecheck:system
func oncePanicAgain() {
	get := sync.OnceValue(func() int { panic("no value") })
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer func() { _ = recover() }()
		_ = get()
	}()
	go func() {
		defer wg.Done()
		defer func() {
			if recover() != nil {
				panic("the panic came back") // want `^SC: system oncePanicAgain is wrong even under sequential consistency`
			}
		}()
		_ = get()
	}()
	wg.Wait()
}
