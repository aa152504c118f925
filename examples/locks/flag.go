package locks

import "sync"

// Message passing: a producer fills in a message and then raises a plain
// flag; the consumer waits for the flag and reads the message. x86 keeps the
// two stores, and the two loads, in order, so this is correct on amd64 as
// written.
type mailbox struct {
	msg   int32
	ready bool
}

// messagePassingSystem hands one message from a producer to a consumer.
//
//fencecheck:system
func messagePassingSystem() {
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
