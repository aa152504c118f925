// Package lazyinit initialises a value lazily behind a plain flag, from two
// goroutines.
//
// Expected: racy.
package lazyinit

import "sync"

// lazy is a value and the flag that says it is set.
type lazy struct {
	done  bool
	value int32
}

// get initialises the value on first use and returns it.
func (l *lazy) get() int32 {
	if !l.done {
		l.value = 42
		l.done = true
	}
	return l.value
}

// system: both goroutines may initialise at once.
//
//fencecheck:system
func system() {
	var l lazy
	var r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r0 = l.get()
		wg.Done()
	}()
	go func() {
		r1 = l.get()
		wg.Done()
	}()
	wg.Wait()
	if r0 != 42 || r1 != 42 {
		panic("saw the value before it was set")
	}
}
