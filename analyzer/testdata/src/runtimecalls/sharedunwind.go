package runtimecalls

import (
	"errors"
	"sync"
	"sync/atomic"
)

// A breaker in the style of sony/gobreaker's Execute: the request runs
// under a deferred function that records a panic as a failure, under the
// breaker's mutex, and panics again. Every place of the request and of
// the bookkeeping that may panic runs that deferred call.

var errRejected = errors.New("rejected")

type breaker struct {
	mu       sync.Mutex
	failures int
	requests int
	limit    int
	table    []int
	owner    *breaker
}

func (b *breaker) before() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures >= b.limit {
		return errRejected
	}
	b.requests++
	return nil
}

func (b *breaker) after(ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !ok {
		b.failures++
	}
}

func (b *breaker) execute(req func() int) (int, error) {
	if err := b.before(); err != nil {
		return 0, err
	}
	defer func() {
		if e := recover(); e != nil {
			b.after(false)
			panic(e) // want `^SC: system breakerPanics is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	v := req()
	b.after(true)
	return v, nil
}

// lookup indexes the breaker's table and follows its owner: two places
// that may panic, and neither does while the table has three entries and
// the owner is set.
func (b *breaker) lookup(i int) int {
	return b.table[i] + b.owner.limit
}

// breakerCalls: no request panics, so the deferred call's failure path
// never runs.
//
//fencecheck:system
func breakerCalls() {
	b := &breaker{limit: 2, table: []int{1, 2, 3}}
	b.owner = b
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.execute(func() int { return b.lookup(i) + b.lookup(i+1) })
		}()
	}
	wg.Wait()
}

// breakerPanics: the second request indexes past the table; the deferred
// call records the failure and panics again.
//
//fencecheck:system
func breakerPanics() {
	b := &breaker{limit: 2, table: []int{1, 2, 3}}
	b.owner = b
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.execute(func() int { return b.lookup(3*i) + b.lookup(i+1) })
		}()
	}
	wg.Wait()
}

// guarded runs f under a deferred call that recovers only when catch is
// set (a handler installed by an option), so that a panic it does not
// recover goes on past it.
func guarded(catch *bool, f func()) {
	defer func() {
		if *catch {
			recover()
		}
	}()
	f()
}

type cell struct{ v int }

// uncaughtNil: of the two places that may panic under the deferred call,
// the index (chosen by another goroutine) stays in range and the nil
// dereference panics: it is the panic reported.
//
//fencecheck:system
func uncaughtNil() {
	catch := false
	table := []int{1, 2, 3}
	var c *cell
	var sel atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sel.Store(1) }()
	go func() {
		defer wg.Done()
		guarded(&catch, func() {
			n := table[sel.Load()+1]
			n += c.v // want `^SC: system uncaughtNil is wrong even under sequential consistency: the bad state nil pointer dereference is reached here`
			_ = n
		})
	}()
	wg.Wait()
}

// uncaughtIndex: the same places; here the index panics once the other
// goroutine has chosen 1, and the dereference never does.
//
//fencecheck:system
func uncaughtIndex() {
	catch := false
	table := []int{1, 2}
	c := &cell{}
	var sel atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sel.Store(1) }()
	go func() {
		defer wg.Done()
		guarded(&catch, func() {
			n := table[sel.Load()+1] // want `^SC: system uncaughtIndex is wrong even under sequential consistency: the bad state index out of range is reached here`
			n += c.v
			_ = n
		})
	}()
	wg.Wait()
}

// caughtBoth: with the handler set, neither panic is a bad state.
//
//fencecheck:system
func caughtBoth() {
	catch := true
	table := []int{1, 2}
	var c *cell
	var sel atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sel.Store(1) }()
	go func() {
		defer wg.Done()
		guarded(&catch, func() {
			n := table[sel.Load()+1]
			n += c.v
			_ = n
		})
	}()
	wg.Wait()
}
