package analyzer

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"time"
)

// errBudget and errMemory are the causes with which a system's context ends
// when its time budget or the memory limit runs out.
var (
	errBudget = errors.New("time budget")
	errMemory = errors.New("memory limit")
)

// heapMetric is the runtime metric watched against the memory limit: the
// bytes of heap objects, live or not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

// watchMemory returns a context that ends with cause errMemory when the heap
// exceeds limit bytes, polled while the analysis runs, and the function that
// stops the watch.
func watchMemory(parent context.Context, limit uint64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sample := []metrics.Sample{{Name: heapMetric}}
	over := func() bool {
		metrics.Read(sample)
		return sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > limit
	}
	if over() {
		cancel(errMemory)
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
					cancel(errMemory)
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

// OnLimit, when set, is called whenever an answer is cut short by the time
// budget or the memory limit: answers that depend on the machine's speed or
// load. The fencecheck command uses it to keep such answers out of go vet's
// result cache.
var OnLimit func(cause error)

// stopReason returns reason, an engine's account of why it stopped, with
// the limit that stopped it when the system's context ended: the time
// budget or the memory limit, and the flag that raises it.
func (s *system) stopReason(reason string) string {
	if s.ctx.Err() == nil {
		return reason
	}
	if OnLimit != nil {
		OnLimit(context.Cause(s.ctx))
	}
	if errors.Is(context.Cause(s.ctx), errMemory) {
		return fmt.Sprintf("the memory limit of %d MiB was reached (%s); raise it with -memory", s.cfg.memoryLimit()>>20, reason)
	}
	return fmt.Sprintf("the budget of %v per system ran out (%s); raise it with -budget", s.cfg.budget(), reason)
}
