// Package mpflagatomic publishes a plain message through an atomic flag
// (examples/locks).
//
// Expected: race-free.
package mpflagatomic

import (
	"sync"
	"sync/atomic"
)

// mailbox holds one plain message and its atomic flag.
type mailbox struct {
	msg   int32
	ready atomic.Bool
}

// system hands one message from a producer to a consumer.
//
//fencecheck:system
func system() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m.msg = 42
		m.ready.Store(true)
		wg.Done()
	}()
	go func() {
		for !m.ready.Load() {
		}
		if m.msg != 42 {
			panic("mailbox: message not visible after the flag")
		}
		wg.Done()
	}()
	wg.Wait()
}
