package runtimecalls

import (
	"errors"
	"sync"
	"sync/atomic"
)

func task(i int) {
	if i == 1 {
		panic("task failed") // want `^SC: system recoveringRunnerWrong is wrong even under sequential consistency: the panic is reached here`
	}
}

// recoveringRunner runs tasks that may panic and counts their panics, as
// task runners such as sourcegraph/conc's pool do: a recovered panic is no
// bad state.
//
//fencecheck:system
func recoveringRunner() {
	var panics atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panics.Add(1)
				}
			}()
			task(i)
		}()
	}
	wg.Wait()
	if panics.Load() != 1 {
		panic("a panic was lost")
	}
}

func catch() {
	recover() // nil: catch is not the deferred function itself
}

// recoveringRunnerWrong recovers in a helper of the deferred function,
// where recover returns nil: the task's panic goes on.
//
//fencecheck:system
func recoveringRunnerWrong() {
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			defer func() { catch() }()
			task(i)
		}()
	}
	wg.Wait()
}

// divide recovers a division by zero and reports it: q keeps its value.
func divide(a, b int) (q int, failed bool) {
	defer func() {
		if recover() != nil {
			failed = true
		}
	}()
	q = a / b
	return q, false
}

// recoveredResults reads the named results of functions that recovered.
//
//fencecheck:system
func recoveredResults() {
	var q [2]int
	var failed [2]bool
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			q[i], failed[i] = divide(6, i)
		}()
	}
	wg.Wait()
	if !failed[0] || failed[1] || q[0] != 0 || q[1] != 6 {
		panic("wrong results")
	}
}

// recoveredResultsWrong expects the failed division to have a quotient.
//
//fencecheck:system
func recoveredResultsWrong() {
	var q int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		q, _ = divide(6, 0)
	}()
	wg.Wait()
	if q != 6 {
		panic("no quotient") // want `^SC: system recoveredResultsWrong is wrong even under sequential consistency`
	}
}

// closeOnce closes a channel from two goroutines, and recovers the second
// close's panic.
//
//fencecheck:system
func closeOnce() {
	done := make(chan struct{})
	var closed atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			defer func() {
				if recover() == nil {
					closed.Add(1)
				}
			}()
			close(done)
		}()
	}
	wg.Wait()
	if closed.Load() != 1 {
		panic("closed twice")
	}
}

// closeOnceWrong recovers before it closes: the second close panics after
// the deferred call ran.
//
//fencecheck:system
func closeOnceWrong() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			func() {
				defer func() { recover() }()
			}()
			close(done) // want `^SC: system closeOnceWrong is wrong even under sequential consistency: the run-time panic "panic: close of closed channel" is reached here`
		}()
	}
	wg.Wait()
}

// rethrow unlocks and panics again: a bad state at the second panic.
//
//fencecheck:system
func rethrow() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		defer func() {
			if r := recover(); r != nil {
				mu.Unlock()
				panic(r) // want `^SC: system rethrow is wrong even under sequential consistency: the panic is reached here`
			}
		}()
		panic("boom")
	}()
	wg.Wait()
}

// panicInDefer: a deferred call panics while its function returns, and
// one deferred before it recovers.
//
//fencecheck:system
func panicInDefer() {
	var got atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if recover() != nil {
				got.Add(1)
			}
		}()
		defer func() { panic("in defer") }()
	}()
	wg.Wait()
	if got.Load() != 1 {
		panic("not recovered")
	}
}

// panicInDeferWrong defers the recovering call after the panicking one:
// it runs first, when nothing panics.
//
//fencecheck:system
func panicInDeferWrong() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { panic("in defer") }() // want `^SC: system panicInDeferWrong is wrong even under sequential consistency: the panic is reached here`
		defer func() { recover() }()
	}()
	wg.Wait()
}

var errBadInput = errors.New("bad input")

// recoverErrorValue panics with a sentinel error that a deferred call in
// each worker recovers and counts: one of the two fails.
//
//fencecheck:system
func recoverErrorValue() {
	var mu sync.Mutex
	fails := 0
	var wg sync.WaitGroup
	for _, v := range []int{-1, 1} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					fails++
					mu.Unlock()
				}
			}()
			if v < 0 {
				panic(errBadInput)
			}
		}()
	}
	wg.Wait()
	if fails != 1 {
		panic("miscounted")
	}
}

// recoverErrorValueBoth expects both workers to fail.
//
//fencecheck:system
func recoverErrorValueBoth() {
	fails := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, v := range []int{-1, 1} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r == errBadInput {
					mu.Lock()
					fails++
					mu.Unlock()
				}
			}()
			if v < 0 {
				panic(errBadInput)
			}
		}()
	}
	wg.Wait()
	if fails != 2 {
		panic("one worker did not fail") // want `^SC: system recoverErrorValueBoth is wrong even under sequential consistency`
	}
}
