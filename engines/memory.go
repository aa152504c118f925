package engines

import (
	"context"
	"runtime/metrics"
	"time"
)

// heapMetric is the runtime metric watched against a memory limit: the
// bytes of heap objects, live or not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

// WatchMemory returns a context that ends with cause when the heap exceeds
// limit bytes, polled every 50ms while the context lives, and the function
// that stops the watch. Engines see the end as any other end of their
// context; the caller tells it from a deadline by its cause.
func WatchMemory(parent context.Context, limit uint64, cause error) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	over := func() bool { return HeapBytes() > limit }
	if over() {
		cancel(cause)
		return ctx, func() {}
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if over() {
					cancel(cause)
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// HeapBytes is the heap that WatchMemory compares with its limit: the
// bytes of heap objects, live or not yet swept.
func HeapBytes() uint64 {
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
