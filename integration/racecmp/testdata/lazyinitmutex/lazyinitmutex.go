// Package lazyinitmutex initialises a value lazily under a sync.Mutex.
//
// Expected: race-free.
package lazyinitmutex

import "sync"

// lazy is a value, the flag that says it is set, and the mutex that
// guards both.
type lazy struct {
	mu    sync.Mutex
	done  bool
	value int32
}

// get initialises the value on first use and returns it.
func (l *lazy) get() int32 {
	l.mu.Lock()
	if !l.done {
		l.value = 42
		l.done = true
	}
	v := l.value
	l.mu.Unlock()
	return v
}

// system: two goroutines get the value.
//
//fencecheck:system
func system() {
	var l lazy
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			if l.get() != 42 {
				panic("saw the value before it was set")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
