package coi

import (
	"context"
	"fmt"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// Engine runs Inner on the reduction of every program it checks and maps
// counterexamples back to the program. It answers as Inner would on the
// program itself, up to Inner's own bounds (a store-buffer bound counts
// fewer stores in the reduced program).
type Engine struct {
	Inner engines.Engine
	// OnReduce, when set, is called with the statistics of every reduction.
	OnReduce func(Stats)
}

// Name returns the inner engine's name.
func (e *Engine) Name() string { return e.Inner.Name() }

// Check reduces p and decides reachability of its bad states under m with
// the inner engine; an Unsafe answer carries a trace of p.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	if m == model.PSO {
		// The traces of a reduced program are mapped back under x86-TSO
		// only: the inner engine takes the program as it is.
		return e.Inner.Check(ctx, p, m)
	}
	red, err := Reduce(p)
	if err != nil {
		return nil, err
	}
	if e.OnReduce != nil {
		e.OnReduce(red.Stats)
	}
	if !red.Stats.Removed() {
		return e.Inner.Check(ctx, p, m)
	}
	res, err := e.Inner.Check(ctx, red.Prog, m)
	if err != nil || res.Status != engines.Unsafe {
		return res, err
	}
	tr, err := red.Lift(res.Trace)
	if err != nil {
		return nil, fmt.Errorf("cone of influence: %w", err)
	}
	res.Trace = tr
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}
