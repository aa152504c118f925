// Package spin is a spin lock in the style of tidwall/spinlock: a CAS loop
// that yields while the lock is held. Lock and Unlock are called from
// another package.
package spin

import (
	"runtime"
	"sync/atomic"
)

// Lock is a spin lock; its zero value is unlocked.
type Lock struct {
	state uint32
}

// Lock takes the lock.
func (l *Lock) Lock() {
	for !atomic.CompareAndSwapUint32(&l.state, 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	atomic.StoreUint32(&l.state, 0)
}

// Flag is a test-and-set lock written wrong: the test and the set are two
// steps.
type Flag struct {
	held int32
}

// Acquire waits for the flag to be clear and sets it.
func (f *Flag) Acquire() {
	for atomic.LoadInt32(&f.held) != 0 {
	}
	atomic.StoreInt32(&f.held, 1)
}

// Release clears the flag.
func (f *Flag) Release() {
	atomic.StoreInt32(&f.held, 0)
}

// Counter counts with a plain read-modify-write: racy when shared.
type Counter struct {
	n int32
}

// Inc adds one.
func (c *Counter) Inc() { c.n++ }
