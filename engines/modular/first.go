package modular

import (
	"context"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// FirstWork is the work (views stored) the thread-modular engine may spend
// on a program before First hands it to the exact engine: the fenced
// 5-process bakery of testdata/scale needs 59,484 and the Go bakery of
// five goroutines 69,729. A program the views cannot prove costs at most
// this much before the exact search starts (about a second).
const FirstWork = 1 << 18

// First tries to prove each program safe with the thread-modular engine
// before Exact decides it: a proof is the answer, anything else (a view
// that reaches a bad state, the budget) goes to Exact. It tries only
// programs it can take whose views forget some process: under SC, or
// under x86-TSO when every read finds its buffer empty, with bad states
// that name fewer processes than the program has.
type First struct {
	Exact engines.Engine
	// Work bounds the views of each attempt (0: FirstWork); it is charged
	// to the meter of the context, within that meter's limit.
	Work int64
}

// Name returns "modular+" and the exact engine's name.
func (f *First) Name() string { return "modular+" + f.Exact.Name() }

// Check proves p safe under m with views of a few processes, or returns
// Exact's answer.
func (f *First) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	if m == model.PSO {
		return f.Exact.Check(ctx, p, m)
	}
	if res := f.prove(ctx, p, m); res != nil {
		return res, nil
	}
	return f.Exact.Check(ctx, p, m)
}

// prove returns the thread-modular engine's proof, or nil.
func (f *First) prove(ctx context.Context, p *model.Program, m model.Model) *engines.Result {
	if err := p.Validate(); err != nil {
		return nil
	}
	p.Index()
	if m == model.TSO && !facts.LoadsDrained(p) {
		return nil
	}
	s, err := newSearch(p)
	if err != nil || s.size >= s.n {
		return nil
	}
	work := f.Work
	if work <= 0 {
		work = FirstWork
	}
	start := time.Now()
	meter := engines.MeterOf(ctx)
	fm := meter.Sub(work)
	res, err := (&Engine{MaxViews: int(work)}).Check(engines.WithMeter(ctx, fm), p, m)
	meter.Join(fm)
	if err != nil || res.Status != engines.Safe {
		return nil
	}
	res.Stats.Duration = time.Since(start)
	return res
}
