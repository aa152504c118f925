// Package k8sleaderelection is written in the style of client-go's leader
// elector, whose renew goroutine waits for the lease records its informer
// observes. The bug is a goroutine that ignores ctx.Done: the renew loop
// receives the next record without watching the context, so when the
// elector is cancelled the goroutine waits forever (a leak).
package k8sleaderelection

import "context"

// LeaderElector keeps a lease while it leads.
type LeaderElector struct {
	identity int
	observed chan int
	renewals int32
}

// renew takes two observed records and renews the lease after each.
func (le *LeaderElector) renew(ctx context.Context) {
	for i := 0; i < 2; i++ {
		holder := <-le.observed // want `^leak: renew blocks forever in <-le\.observed after system lead returns$`
		if holder != le.identity {
			return
		}
		le.renewals++
	}
}

// renewFixed stops waiting once ctx is done.
func (le *LeaderElector) renewFixed(ctx context.Context) {
	for i := 0; i < 2; i++ {
		var holder int
		select {
		case holder = <-le.observed:
		case <-ctx.Done():
			return
		}
		if holder != le.identity {
			return
		}
		le.renewals++
	}
}

// lead observes one record and then steps down.
//
//fencecheck:system
func lead() {
	ctx, cancel := context.WithCancel(context.Background())
	le := &LeaderElector{identity: 1, observed: make(chan int)}
	go le.renew(ctx)
	le.observed <- 1
	cancel()
}

// leadFixed renews with renewFixed.
//
//fencecheck:system
func leadFixed() {
	ctx, cancel := context.WithCancel(context.Background())
	le := &LeaderElector{identity: 1, observed: make(chan int)}
	go le.renewFixed(ctx)
	le.observed <- 1
	cancel()
}
