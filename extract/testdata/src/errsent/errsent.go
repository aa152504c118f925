package errsent

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")
var errFull = errors.New("full")

type box struct {
	mu     sync.Mutex
	closed bool
	n      int
}

func (b *box) put() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errClosed
	}
	if b.n == 1 {
		return errFull
	}
	b.n++
	return nil
}

func (b *box) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
}

// sentinel: put returns nil, errFull or errClosed, told apart by identity.
//
//fencecheck:system
func sentinel() {
	var b box
	var wg sync.WaitGroup
	var e1, e2 error
	wg.Add(2)
	go func() {
		e1 = b.put()
		wg.Done()
	}()
	go func() {
		b.close()
		e2 = b.put()
		wg.Done()
	}()
	wg.Wait()
	if !errors.Is(e2, errClosed) {
		panic("put after close")
	}
	if e1 != nil && e1 != errClosed {
		panic("e1")
	}
}

// sentinelWrong expects the first put to succeed: close may come first.
//
//fencecheck:system
func sentinelWrong() {
	var b box
	var wg sync.WaitGroup
	var e1 error
	wg.Add(2)
	go func() {
		e1 = b.put()
		wg.Done()
	}()
	go func() {
		b.close()
		wg.Done()
	}()
	wg.Wait()
	if e1 == errClosed {
		panic("closed first")
	}
}

type worker struct {
	err error
}

func (w *worker) fail(code int32) error {
	if code != 0 {
		return errors.New("failed")
	}
	return nil
}

// madeInGoroutine: each goroutine makes its own error, distinct from the
// other's.
//
//fencecheck:system
func madeInGoroutine() {
	var a, b worker
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		a.err = a.fail(1)
		wg.Done()
	}()
	go func() {
		b.err = b.fail(1)
		wg.Done()
	}()
	wg.Wait()
	if a.err == nil || b.err == nil || a.err == b.err {
		panic("errors not distinct")
	}
}

// sameError expects the two errors to be one: they never are.
//
//fencecheck:system
func sameError() {
	var a, b worker
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		a.err = a.fail(1)
		wg.Done()
	}()
	go func() {
		b.err = b.fail(1)
		wg.Done()
	}()
	wg.Wait()
	if a.err != b.err {
		panic("two errors")
	}
}
