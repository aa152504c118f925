// Package flag follows the message-passing flag protocol that the Go
// memory model document discusses (a value written, then a done flag
// set; the reader waits for the flag, then reads the value), with the flag
// an atomic.Bool as that document recommends.
//
// Expected, by hand: handOff is correct and race-free (the atomic store of
// the flag follows the message's store and the atomic load that sees it
// precedes the message's load). plainDone uses a plain bool, the document's
// own counter-example: the flag and the message race (race findings on
// both), though on amd64 the hand-off works (no SC or x86-TSO finding).
package flag

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type mailbox struct {
	msg  int
	done atomic.Bool
}

func (m *mailbox) send(v int) {
	m.msg = v
	m.done.Store(true)
}

func (m *mailbox) receive() int {
	for !m.done.Load() {
		runtime.Gosched()
	}
	return m.msg
}

//fencecheck:system
func handOff() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m.send(42)
		wg.Done()
	}()
	go func() {
		if m.receive() != 42 {
			panic("read the message before it was sent")
		}
		wg.Done()
	}()
	wg.Wait()
}

type plainMailbox struct {
	msg  int
	done bool
}

func (m *plainMailbox) send(v int) {
	m.msg = v     // want `^race: go@\d+ stores m\.msg here`
	m.done = true // want `^race: go@\d+ stores m\.done here`
}

func (m *plainMailbox) receive() int {
	for !m.done {
		runtime.Gosched()
	}
	return m.msg
}

//fencecheck:system
func plainDone() {
	var m plainMailbox
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m.send(42)
		wg.Done()
	}()
	go func() {
		if m.receive() != 42 {
			panic("read the message before it was sent")
		}
		wg.Done()
	}()
	wg.Wait()
}
