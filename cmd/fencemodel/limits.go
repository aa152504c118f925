package main

import (
	"context"
	"errors"
	"flag"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
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
	ctx, stop := engines.WatchMemory(ctx, uint64(f.memory)<<20, errMemory)
	return ctx, func() {
		stop()
		cancel()
	}
}
