package channels

import (
	"context"
	"sync"
	"time"
)

// A goroutine that makes its own context, as a pool's ticker goroutine
// does (context.WithCancel(context.Background()) when it starts): the
// context is a node of the tree like the set-up's, which nothing reaches
// before it is made.

// ownTimeout: a worker waits for a reply or its own timeout.
//
//fencecheck:system
func ownTimeout() {
	replies := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		select {
		case <-replies:
		case <-ctx.Done():
		}
	}()
	wg.Wait()
}

// ownCancelNeverCalled: a worker waits on a context nobody cancels.
//
//fencecheck:system
func ownCancelNeverCalled() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		_ = cancel
		<-ctx.Done() // want `^deadlock: go@\d+ and main block forever in <-ctx\.Done\(\) and wg\.Wait\(\) \(system ownCancelNeverCalled\)`
	}()
	wg.Wait()
}

// ownCancelHandedOver: a worker makes a context and hands its cancel to
// main over a channel; main cancels it. A cancel function on a channel is
// an entry of the table of context.CancelFunc values.
//
//fencecheck:system
func ownCancelHandedOver() {
	cancels := make(chan context.CancelFunc, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		cancels <- cancel
		<-ctx.Done()
	}()
	(<-cancels)()
	wg.Wait()
}

// ownCancelInLoop: each round makes a new context: refused where a run
// reaches it.
//
//fencecheck:system
func ownCancelInLoop() { // want `^inconclusive: system ownCancelInLoop: a run reaches a context\.WithCancel in a loop of a goroutine`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 2 {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			<-ctx.Done()
		}
	}()
	wg.Wait()
}

// ownCancelDropped: as ownCancelHandedOver, but main drops the cancel
// function it receives.
//
//fencecheck:system
func ownCancelDropped() {
	cancels := make(chan context.CancelFunc, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		cancels <- cancel
		<-ctx.Done() // want `^deadlock: go@\d+ and main block forever in <-ctx\.Done\(\) and wg\.Wait\(\) \(system ownCancelDropped\)`
	}()
	<-cancels
	wg.Wait()
}

// ownCtxDerivedInField: a goroutine builds an object whose context field
// the literal sets and the constructor then derives from itself, as
// github.com/alitto/pond's newPool does (pool.ctx, pool.cancel =
// context.WithCancelCause(pool.ctx)): the load of the field runs before
// the store, outside any loop.
//
//fencecheck:system
func ownCtxDerivedInField() {
	type worker struct {
		ctx    context.Context
		cancel context.CancelFunc
	}
	stopped := make(chan bool)
	go func() {
		w := &worker{ctx: context.Background()}
		w.ctx, w.cancel = context.WithCancel(w.ctx)
		w.cancel()
		<-w.ctx.Done()
		stopped <- w.ctx.Err() == context.Canceled
	}()
	if !<-stopped {
		panic("the worker's context is not cancelled")
	}
}
