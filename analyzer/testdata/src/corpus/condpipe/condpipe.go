// Package condpipe follows the synchronous pipe io.Pipe had before Go
// 1.10: a sync.Cond kept by value in the pipe, its L the pipe's mutex;
// Write hands its data over and signals, Read waits on the Cond until
// data or a close arrives.
//
// Expected, by hand: writeRead is correct: the reader waits in a loop on
// the condition under the mutex, and every change of it signals. The
// mutant closeWithoutSignal closes the pipe without a Broadcast: a
// reader already waiting sleeps for ever (deadlock, main waiting for it).
package condpipe

import "sync"

type pipe struct {
	mu     sync.Mutex
	cond   sync.Cond
	data   int32
	ready  bool
	closed bool
}

func newPipe() *pipe {
	p := &pipe{}
	p.cond.L = &p.mu
	return p
}

func (p *pipe) write(v int32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.data, p.ready = v, true
	p.cond.Signal()
}

func (p *pipe) close(signal bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if signal {
		p.cond.Broadcast()
	}
}

// read returns the data written, or false once the pipe is closed.
func (p *pipe) read() (int32, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.ready && !p.closed {
		p.cond.Wait() // want `^deadlock: go@\d+ and main block forever in p\.cond\.Wait\(\) and <-done \(system closeWithoutSignal\)`
	}
	if !p.ready {
		return 0, false
	}
	p.ready = false
	return p.data, true
}

//fencecheck:system
func writeRead() {
	p := newPipe()
	done := make(chan int32)
	go p.write(7)
	go func() {
		v, _ := p.read()
		done <- v
	}()
	if <-done != 7 {
		panic("the write lost")
	}
}

//fencecheck:system
func closeWithoutSignal() {
	p := newPipe()
	done := make(chan int32)
	go p.close(false)
	go func() {
		v, _ := p.read()
		done <- v
	}()
	<-done
}
