package channels

import (
	"context"
	"errors"
	"sync"
	"time"
)

// pipelineCancel: a producer sends until the consumer cancels.
//
//fencecheck:system
func pipelineCancel() {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan int)
	go func() {
		for i := 0; i < 3; i++ {
			select {
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	<-out
	cancel()
}

// pipelineLeak: a producer that does not watch the context.
//
//fencecheck:system
func pipelineLeak() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan int)
	go func() {
		for i := 0; i < 3; i++ {
			out <- i // want `^leak: go@\d+ blocks forever in out <- i after system pipelineLeak returns$`
		}
	}()
	select {
	case <-out:
	case <-ctx.Done():
	}
}

// withTimeout: a worker that waits for work or the deadline.
//
//fencecheck:system
func withTimeout() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	work := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-work:
		case <-ctx.Done():
		}
	}()
	wg.Wait()
}

// afterTimeout: waits on a result with time.After.
//
//fencecheck:system
func afterTimeout() {
	res := make(chan int)
	go func() {
		select {
		case v := <-res:
			_ = v
		case <-time.After(time.Second):
		}
	}()
}

// afterLeak: the sender has no timeout, the receiver gives up.
//
//fencecheck:system
func afterLeak() {
	res := make(chan int)
	go func() {
		res <- 1 // want `^leak: go@\d+ blocks forever in res <- 1 after system afterLeak returns$`
	}()
	select {
	case <-res:
	case <-time.After(time.Millisecond):
	}
}

// ticker polls on a ticker until done is closed.
//
//fencecheck:system
func ticker() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	done := make(chan struct{})
	go func() {
		close(done)
	}()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

// ctxErrPoll polls Err between steps of work; it is nil until cancel.
//
//fencecheck:system
func ctxErrPoll() {
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() {
		for i := 0; i < 3; i++ {
			if err := ctx.Err(); err != nil {
				res <- err
				return
			}
		}
		res <- nil
	}()
	cancel()
	if err := <-res; err != nil && !errors.Is(err, context.Canceled) {
		panic("not a cancellation")
	}
}

// ctxErrBeforeCancel reads Err before main cancels: the goroutine's
// send happens before main's receive returns, and that before cancel.
//
//fencecheck:system
func ctxErrBeforeCancel() {
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- ctx.Err() }()
	if err := <-res; err != nil {
		panic("cancelled")
	}
	cancel()
}

// ctxErrAfterCancel is its buggy twin: cancel may come first.
//
//fencecheck:system
func ctxErrAfterCancel() {
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- ctx.Err() }()
	cancel()
	if err := <-res; err != nil {
		panic("cancelled") // want `^SC: system ctxErrAfterCancel is wrong even under sequential consistency`
	}
}

// ctxErrDeadline: only the deadline can end the wait, so Err is
// context.DeadlineExceeded.
//
//fencecheck:system
func ctxErrDeadline() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res := make(chan error, 1)
	go func() {
		<-ctx.Done()
		res <- ctx.Err()
	}()
	if err := <-res; err != context.DeadlineExceeded {
		panic("not the deadline")
	}
}

// ctxErrDeadlineOrCancel is its buggy twin: cancel may come first.
//
//fencecheck:system
func ctxErrDeadlineOrCancel() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	res := make(chan error, 1)
	go func() {
		<-ctx.Done()
		res <- ctx.Err()
	}()
	cancel()
	if err := <-res; err != context.DeadlineExceeded {
		panic("not the deadline") // want `^SC: system ctxErrDeadlineOrCancel is wrong even under sequential consistency`
	}
}

// ctxErrChild: a child of a context with a deadline reports the parent's
// deadline.
//
//fencecheck:system
func ctxErrChild() {
	parent, cancelParent := context.WithTimeout(context.Background(), time.Second)
	defer cancelParent()
	child, cancel := context.WithCancel(parent)
	defer cancel()
	res := make(chan error, 1)
	go func() {
		<-child.Done()
		res <- child.Err()
	}()
	if !errors.Is(<-res, context.DeadlineExceeded) {
		panic("not the deadline")
	}
}
