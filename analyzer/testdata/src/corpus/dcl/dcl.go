// Package dcl follows double-checked lazy initialisation as Go code writes
// it by hand around a pointer (the pattern behind sync.OnceValue and many
// package-level "get or build the client" accessors): an atomic flag tested
// without the lock, a mutex, the flag tested again under it, the value
// built and the flag set last.
//
// Expected, by hand: lazyGet is correct and race-free (the value is read
// only after an atomic load of the flag saw the store that follows its
// construction, or under the mutex). plainFlag is the classic broken
// version with a plain bool: the fast-path load of the flag races with the
// store under the lock (race on l.done), and so do the loads and stores of
// the value (race on l.val); on amd64 it happens to work (no SC or x86-TSO
// finding), which is exactly why it survives in real code.
package dcl

import (
	"sync"
	"sync/atomic"
)

type client struct {
	id int
}

// Lazy builds its client on first use.
type Lazy struct {
	done atomic.Bool
	mu   sync.Mutex
	val  *client
}

func (l *Lazy) Get() *client {
	if l.done.Load() {
		return l.val
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done.Load() {
		l.val = &client{id: 7}
		l.done.Store(true)
	}
	return l.val
}

//fencecheck:system
func lazyGet() {
	var l Lazy
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if c := l.Get(); c == nil || c.id != 7 {
				panic("saw an unbuilt client")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// plainLazy has a plain flag.
type plainLazy struct {
	done bool
	mu   sync.Mutex
	val  *client
}

func (l *plainLazy) Get() *client {
	if l.done { // want `^race: go@\d+#2 loads l\.done here`
		return l.val // want `^race: go@\d+#2 loads l\.val here`
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.val = &client{id: 7} // want `^race: go@\d+ stores client\.id here`
		l.done = true
	}
	return l.val
}

//fencecheck:system
func plainFlag() {
	var l plainLazy
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if c := l.Get(); c == nil || c.id != 7 {
				panic("saw an unbuilt client")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
