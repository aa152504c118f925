package channels

import (
	"context"
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
