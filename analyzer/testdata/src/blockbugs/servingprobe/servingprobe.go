// Package servingprobe is written in the style of Knative Serving's
// activator probing a revision before it forwards requests, bounded by
// the request's context. The bug is the leak of a timeout select: the
// probe result channel is unbuffered, so when the context's deadline
// passes first, the probing goroutine blocks forever on its send.
package servingprobe

import (
	"context"
	"time"
)

// revisionProber probes the pods of one revision.
type revisionProber struct {
	ready chan bool
}

func (p *revisionProber) doProbe() bool {
	return true
}

// probe waits for the probe's answer or the context's end.
func (p *revisionProber) probe(ctx context.Context) bool {
	go func() {
		p.ready <- p.doProbe() // want `^leak: go@\d+ blocks forever in p\.ready <- p\.doProbe\(\) after system activate returns$`
	}()
	select {
	case r := <-p.ready:
		return r
	case <-ctx.Done():
		return false
	}
}

// activate probes with an unbuffered channel.
//
//fencecheck:system
func activate() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	p := &revisionProber{ready: make(chan bool)}
	p.probe(ctx)
}

// activateFixed gives the channel room for the probe's answer.
//
//fencecheck:system
func activateFixed() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	p := &revisionProber{ready: make(chan bool, 1)}
	p.probe(ctx)
}
