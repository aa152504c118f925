// Package grpctransport is written in the style of gRPC-Go's HTTP/2
// client transport, which its reader goroutine closes on a GOAWAY frame
// and the user closes with Close. The bug is a close of a closed channel:
// both check t.closing with a select-default before they close it, and the
// check and the close are not one step, so both can find it open and the
// second close panics.
package grpctransport

import "sync"

// http2Client is a client transport.
type http2Client struct {
	mu      sync.Mutex
	state   int32 // 0 reachable, 1 closing
	closing chan struct{}
}

// close closes the transport unless it is closed already.
func (t *http2Client) close() {
	select {
	case <-t.closing:
		return
	default:
	}
	close(t.closing) // want `^SC: system goAway is wrong even under sequential consistency: the run-time panic "panic: close of closed channel"`
}

// closeFixed checks and closes under the transport's lock.
func (t *http2Client) closeFixed() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == 1 {
		return
	}
	t.state = 1
	close(t.closing)
}

// goAway: the reader goroutine gets a GOAWAY while the user closes the
// connection.
//
//fencecheck:system
func goAway() {
	t := &http2Client{closing: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); t.close() }()
	t.close()
	wg.Wait()
}

// goAwayFixed closes with closeFixed.
//
//fencecheck:system
func goAwayFixed() {
	t := &http2Client{closing: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); t.closeFixed() }()
	t.closeFixed()
	wg.Wait()
}
