// Package stackfield has a goroutine record its stack trace in a struct
// field that the main goroutine reads without waiting for it.
//
// Expected: racy.
package stackfield

import "runtime/debug"

type report struct {
	stack []byte
}

// system: the field is written and read with nothing ordering the two.
//
//fencecheck:system
func system() {
	var r report
	done := make(chan struct{})
	go func() {
		r.stack = debug.Stack()
		close(done)
	}()
	if r.stack != nil {
		_ = string(r.stack)
	}
	<-done
}
