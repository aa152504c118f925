package main

import (
	"context"
	"errors"
	"flag"
	"runtime/metrics"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/coi"
)

// defaultMemory is the default of -memory, in MiB.
const defaultMemory = 2048

// errMemory is the cause with which a file's context ends when the heap
// exceeds -memory; engines name it in their inconclusive answers.
var errMemory = errors.New("memory limit (-memory)")

// registerReduce adds the -reduce flag (check and fences only: the race
// question needs every access, which the reduction may remove).
func (f *engineFlags) registerReduce(fs *flag.FlagSet) {
	fs.BoolVar(&f.reduce, "reduce", true, "slice each program to the cone of influence of its bad states before the search")
}

// reduced wraps eng in the cone-of-influence reduction when -reduce is set.
func (f *engineFlags) reduced(eng engines.Engine) engines.Engine {
	if !f.reduce {
		return eng
	}
	return &coi.Engine{Inner: eng}
}

// context returns the context of one file: it ends at the time budget, or
// with cause errMemory when the heap exceeds -memory.
func (f *engineFlags) context() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), f.budget)
	if f.maxWork > 0 {
		ctx = engines.WithMeter(ctx, engines.NewMeter(f.maxWork))
	}
	if f.memory <= 0 {
		return ctx, cancel
	}
	ctx, stop := watchMemory(ctx, uint64(f.memory)<<20)
	return ctx, func() {
		stop()
		cancel()
	}
}

// watchMemory returns a context that ends with cause errMemory when the
// heap objects exceed limit bytes (polled every 50ms), and the function
// that stops the watch.
func watchMemory(parent context.Context, limit uint64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	over := func() bool {
		metrics.Read(sample)
		return sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > limit
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			if over() {
				cancel(errMemory)
				return
			}
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}
