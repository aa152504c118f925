// Package grpcbalancer is written in the style of gRPC-Go's
// ccBalancerWrapper, whose watcher goroutine serves updates to the
// balancer until the ClientConn closes. The bug is a goroutine that
// ignores ctx.Done: the subchannel's state update is sent without watching
// the ClientConn's context, so once the ClientConn is closed and the
// watcher gone, the send blocks forever (a leak).
package grpcbalancer

import "context"

// ccBalancerWrapper serialises updates to the balancer.
type ccBalancerWrapper struct {
	ctx      context.Context
	updateCh chan int
}

// watcher serves updates until the ClientConn closes.
func (w *ccBalancerWrapper) watcher() {
	for {
		select {
		case u := <-w.updateCh:
			_ = u
		case <-w.ctx.Done():
			return
		}
	}
}

// updateSubConnState hands a subchannel's new state to the watcher.
func (w *ccBalancerWrapper) updateSubConnState(state int) {
	w.updateCh <- state // want `^leak: updateSubConnState\(2\) blocks forever in w\.updateCh <- state after system closeWhileReady returns$`
}

// updateSubConnStateFixed gives up once the ClientConn is closed.
func (w *ccBalancerWrapper) updateSubConnStateFixed(state int) {
	select {
	case w.updateCh <- state:
	case <-w.ctx.Done():
	}
}

// closeWhileReady: a subchannel becomes READY while the ClientConn closes.
//
//fencecheck:system
func closeWhileReady() {
	ctx, cancel := context.WithCancel(context.Background())
	w := &ccBalancerWrapper{ctx: ctx, updateCh: make(chan int)}
	go w.watcher()
	go w.updateSubConnState(2)
	cancel()
}

// closeWhileReadyFixed updates with updateSubConnStateFixed.
//
//fencecheck:system
func closeWhileReadyFixed() {
	ctx, cancel := context.WithCancel(context.Background())
	w := &ccBalancerWrapper{ctx: ctx, updateCh: make(chan int)}
	go w.watcher()
	go w.updateSubConnStateFixed(2)
	cancel()
}
