// Package mpflag is message passing through a plain flag that the consumer
// spins on (examples/locks).
//
// Expected: racy.
package mpflag

import "sync"

// mailbox holds one message and its flag.
type mailbox struct {
	msg   int32
	ready bool
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
		m.ready = true
		wg.Done()
	}()
	go func() {
		for !m.ready {
		}
		if m.msg != 42 {
			panic("mailbox: message not visible after the flag")
		}
		wg.Done()
	}()
	wg.Wait()
}
