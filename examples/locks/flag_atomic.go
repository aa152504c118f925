package locks

import (
	"sync"
	"sync/atomic"
)

// atomicMailbox publishes a plain message through an atomic flag: the store
// of ready happens after the write of msg, and a reader that loads ready ==
// true reads msg after it, so msg needs no atomic of its own.
type atomicMailbox struct {
	msg   int32
	ready atomic.Bool
}

// atomicMessagePassingSystem sends one message through an atomic flag.
//
//fencecheck:system
func atomicMessagePassingSystem() {
	var m atomicMailbox
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
