// Package runtimecalls holds systems that call into the run time and use
// the constructs of everyday Go around it: method values, sync.NewCond on
// a mutex of its own, nil dereferences, runtime.GOMAXPROCS and friends,
// Gosched and Goexit, panic and recover, time.Now and sync.Pool. Each
// construct has a correct system and a buggy twin.
package runtimecalls

import "sync"

type counter struct {
	mu sync.Mutex
	n  int
}

// lockByValue locks through method values (lock := c.mu.Lock), in the
// goroutines and in the set-up: as mu.Lock() does.
//
//fencecheck:system
func lockByValue() {
	var c counter
	lock, unlock := c.mu.Lock, c.mu.Unlock
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			lock()
			c.n++
			unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

// lockByValueWrong unlocks before it increments.
//
//fencecheck:system
func lockByValueWrong() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			lock := c.mu.Lock
			lock()
			unlock := c.mu.Unlock
			unlock()
			c.n++ // want `^race: go@\d+ stores c\.n here while go@\d+#2 loads c\.n`
			wg.Done()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update") // want `^SC: system lockByValueWrong is wrong even under sequential consistency`
	}
}

type loop struct {
	mu   sync.Mutex
	runs int
	wg   sync.WaitGroup
}

func (l *loop) run(id int) {
	defer l.wg.Done()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs += id
}

// goMethodValue starts goroutines through a method value: go run(1) is
// go l.run(1).
//
//fencecheck:system
func goMethodValue() {
	var l loop
	run := l.run
	l.wg.Add(2)
	go run(1)
	go run(2)
	l.wg.Wait()
	if l.runs != 3 {
		panic("a run is missing")
	}
}

func (l *loop) runUnlocked(id int) {
	defer l.wg.Done()
	l.runs += id // want `^race: runUnlocked\(1\) stores l\.runs here while runUnlocked\(2\) loads l\.runs`
}

// goMethodValueWrong's method takes no lock.
//
//fencecheck:system
func goMethodValueWrong() {
	var l loop
	run := l.runUnlocked
	l.wg.Add(2)
	go run(1)
	go run(2)
	l.wg.Wait()
	if l.runs != 3 {
		panic("a run is missing") // want `^SC: system goMethodValueWrong is wrong even under sequential consistency`
	}
}

func (c *counter) inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *counter) incUnlocked() {
	c.n++ // want `^race: go@\d+ stores c\.n here while go@\d+#2 loads c\.n`
}

// methodExpressions calls methods through method expressions: inc(&c) is
// c.inc().
//
//fencecheck:system
func methodExpressions() {
	var c counter
	inc := (*counter).inc
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			inc(&c)
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

// methodExpressionsWrong calls the unlocked increment.
//
//fencecheck:system
func methodExpressionsWrong() {
	var c counter
	inc := (*counter).incUnlocked
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			inc(&c)
		}()
	}
	wg.Wait()
}
