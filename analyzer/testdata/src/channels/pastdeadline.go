package channels

import (
	"context"
	"sync"
	"time"
)

// Contexts whose deadline has passed when they are made: Go cancels them,
// as expired, before WithTimeout or WithDeadline returns (they were taken
// as contexts whose deadline may pass at any moment, and a check that
// they are done at once was a false finding).

// setupZeroTimeout: WithTimeout(ctx, 0) in the set-up is expired.
//
//fencecheck:system
func setupZeroTimeout() {
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if ctx.Err() != context.DeadlineExceeded {
			panic("a zero timeout not expired")
		}
	}()
	wg.Wait()
}

// ownPastDeadline: a goroutine's WithDeadline of a time before now is
// done when it returns.
//
//fencecheck:system
func ownPastDeadline() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		select {
		case <-ctx.Done():
		default:
			panic("a past deadline not done")
		}
	}()
	wg.Wait()
}

// ownFutureDeadline: a deadline ahead may pass at any moment, or not yet.
//
//fencecheck:system
func ownFutureDeadline() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		select {
		case <-ctx.Done():
		default:
			panic("not done yet") // want `^SC: system ownFutureDeadline is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	wg.Wait()
}

// setupErrExpired: the set-up reads Err of a context that expired when it
// was made: context.DeadlineExceeded, not Canceled.
//
//fencecheck:system
func setupErrExpired() {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	err := ctx.Err()
	go cancel()
	if err != context.DeadlineExceeded {
		panic("not expired")
	}
}

// setupErrCancelledFirst: a child of a cancelled parent is cancelled by
// the parent first, with its error, though its own timeout is 0.
//
//fencecheck:system
func setupErrCancelledFirst() {
	parent, cancelParent := context.WithCancel(context.Background())
	cancelParent()
	child, cancel := context.WithTimeout(parent, 0)
	err := child.Err()
	go cancel()
	if err != context.Canceled {
		panic("not the parent's error")
	}
}
