// Package explicit is the explicit-state engine: the forward explicit-state
// search of engines/lib/explore behind the [engines.Engine] interface,
// complete under SC for programs with finite domains, and under x86-TSO
// with store buffers bounded by fences and locked operations when they
// bound them, else by a bound that grows while it cuts writes off (the
// package explore documents the search, its reductions and its bounds).
// The engine is the project's bug finder and test oracle; the exact TSO
// engine is package sb, which runs the same search in its rounds.
package explicit

import (
	"context"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/model"
)

// Engine is the explicit-state engine, configured by the options of the
// search (explore.Options). The zero value is ready to use.
type Engine explore.Options

// Name returns "explicit".
func (*Engine) Name() string { return "explicit" }

// Check searches the reachable states of p under m (see explore.Check).
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	return explore.Check(ctx, p, m, explore.Options(*e))
}
