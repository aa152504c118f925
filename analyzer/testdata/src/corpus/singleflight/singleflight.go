// Package singleflight follows golang.org/x/sync/singleflight: a Group
// whose Do runs fn once per key at a time, under a mutex-guarded map from
// key to call made on first use; a caller that finds a call in flight
// waits on the call's WaitGroup and shares its result. doCall sets
// normalReturn after fn returns, and defers a function that marks the
// call errGoexit when fn did not return normally, then, under the lock,
// marks the call done and forgets the key; a waiter that sees errGoexit
// calls runtime.Goexit itself. The panic half of doCall, which re-panics
// in the callers, is left out, and with it the inner function that runs
// fn (it tells a panic from a Goexit by recovering): fencecheck refuses a
// call of a function value with results from a closure that captures it.
//
// Expected, by hand: sharedGoexit is correct and race-free: one caller's
// fn ends its goroutine with runtime.Goexit (as a test helper's t.FailNow
// does); the deferred function still runs, so a caller that joined the
// call wakes, sees errGoexit and exits too, the key is forgotten, and
// both goroutines' deferred Done lets the system function finish. The
// mutant plainDoCall is doCall as it was before singleflight handled
// Goexit: Done and the delete follow fn in straight-line code, so after
// the Goexit the call is never done and its key is never forgotten; the
// other caller, joining it before or after, waits forever, and so does
// the system function (deadlock).
package singleflight

import (
	"errors"
	"runtime"
	"sync"
)

var errGoexit = errors.New("runtime.Goexit was called")

type call struct {
	wg   sync.WaitGroup
	val  int
	err  error
	dups int
}

// Group deduplicates calls by key.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// Do runs fn for key unless a call for key is in flight, whose result it
// then shares.
func (g *Group) Do(key string, fn func() (int, error)) (v int, err error, shared bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*call)
	}
	if c, ok := g.m[key]; ok {
		c.dups++
		g.mu.Unlock()
		c.wg.Wait()
		if c.err == errGoexit {
			runtime.Goexit()
		}
		return c.val, c.err, true
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	g.doCall(c, key, fn)
	return c.val, c.err, c.dups > 0
}

func (g *Group) doCall(c *call, key string, fn func() (int, error)) {
	normalReturn := false
	defer g.finish(c, key, &normalReturn)
	c.val, c.err = fn()
	normalReturn = true
}

// finish is doCall's deferred function: it runs whether fn returns or
// ends its goroutine.
func (g *Group) finish(c *call, key string, normalReturn *bool) {
	if !*normalReturn {
		c.err = errGoexit
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c.wg.Done()
	if g.m[key] == c {
		delete(g.m, key)
	}
}

func load() (int, error) {
	return 42, nil
}

func failNow() (int, error) {
	runtime.Goexit()
	return 0, nil
}

//fencecheck:system
func sharedGoexit() {
	var g Group
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.Do("config", failNow)
	}()
	go func() {
		defer wg.Done()
		if v, err, _ := g.Do("config", load); err == nil && v != 42 {
			panic("wrong value")
		}
	}()
	wg.Wait()
	if len(g.m) != 0 {
		panic("the key was not forgotten")
	}
}

// doPlain is doCall without the deferred function.
func (g *Group) doPlain(c *call, key string, fn func() (int, error)) {
	c.val, c.err = fn()
	c.wg.Done()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}

func (g *Group) doBefore(key string, fn func() (int, error)) (v int, err error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*call)
	}
	if c, ok := g.m[key]; ok {
		c.dups++
		g.mu.Unlock()
		c.wg.Wait() // want `^deadlock: go@\d+ and main block forever in c\.wg\.Wait\(\) and wg\.Wait\(\) \(system plainDoCall\)`
		return c.val, c.err
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	g.doPlain(c, key, fn)
	return c.val, c.err
}

//fencecheck:system
func plainDoCall() {
	var g Group
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.doBefore("config", failNow)
	}()
	go func() {
		defer wg.Done()
		g.doBefore("config", load)
	}()
	wg.Wait()
}
