// Package portfolio runs a bounded bug finder before an exact engine and
// takes the first answer that is an answer: a counterexample of either, or a
// proof of the exact one (or of the bounded one, when its bound covers every
// execution). It makes bugs in systems too large for exhaustive search show
// up fast, without giving up exactness: a bounded "no bug" never becomes a
// verdict.
package portfolio

import (
	"context"
	"fmt"
	"sync"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// Engine checks a program with Bounded, then, unless that decided it, with
// Exact. Both run one after the other, so that the answer, and the
// counterexample in it, do not depend on which engine is faster on a given
// machine; the bounded engine should have a work budget (bmc's MaxWork) that
// keeps its share of the time small.
type Engine struct {
	// Exact decides reachability; its answer is taken whenever Bounded has
	// none.
	Exact engines.Engine
	// Bounded looks for counterexamples within a bound (engines/bmc). Its
	// Unsafe answers are taken, and its Safe answers when they carry no
	// Result.Bound (the bound covered every execution); its errors and
	// other answers are ignored.
	Bounded engines.Engine

	mu sync.Mutex
	// bounded records, by model, whether Bounded once found no
	// counterexample within its bound: then the checks that follow (fence
	// inference asks about the same program with barriers added, which
	// only removes behaviours) go straight to Exact. So do they once
	// Bounded's budget has cut maxMisses answers in a row under a model:
	// one cut answer does not count (the next program may be easier), but
	// a run of them says its bound or budget does not fit the system (a
	// 3-goroutine filter lock: 23 checks of about 0.1 s each, none of
	// them an answer). An Engine is thus meant for the checks of one
	// system; the order of its checks counts, so concurrent checks (fence
	// inference with several Workers) may skip the bounded engine at
	// different points from run to run: the answers stay right, but an
	// answer the exact engine cannot give within its budget may then be
	// inconclusive where the bounded engine would have found a
	// counterexample.
	bounded map[model.Model]boundedRecord
}

// boundedRecord is what the bounded engine's answers under one model say.
type boundedRecord struct {
	idle   bool // skip it from now on
	misses int  // answers in a row cut by its budget
}

// maxMisses is how many answers in a row the bounded engine's budget may
// cut under a model before the later checks skip it.
const maxMisses = 3

// Name is the exact engine's name and the bounded one's, as "sb+bmc".
func (e *Engine) Name() string { return e.Exact.Name() + "+" + e.Bounded.Name() }

// Check runs the bounded engine on p under m and returns its answer if it
// is conclusive (see [Engine]), after replaying its counterexample once
// more; otherwise it returns the exact engine's answer. Once the bounded
// engine has found no counterexample within its bound under m, or its
// budget has cut maxMisses answers in a row, later checks under m skip it.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	e.mu.Lock()
	idle := e.bounded[m].idle
	e.mu.Unlock()
	if !idle {
		r, err := e.Bounded.Check(ctx, p, m)
		if err == nil && conclusive(r) {
			if err := engines.Verify(p, r); err != nil {
				return nil, fmt.Errorf("%s engine: %w", e.Bounded.Name(), err)
			}
		}
		e.mu.Lock()
		if e.bounded == nil {
			e.bounded = make(map[model.Model]boundedRecord)
		}
		rec := e.bounded[m]
		switch {
		case err != nil:
		case conclusive(r):
			rec.misses = 0
		case r.Status == engines.Safe:
			// No counterexample within the bound: barriers added later
			// cannot make one.
			rec.idle = true
		case r.Status == engines.Inconclusive:
			rec.misses++
			rec.idle = rec.idle || rec.misses >= maxMisses
		}
		e.bounded[m] = rec
		e.mu.Unlock()
		if err == nil && conclusive(r) {
			return r, nil
		}
	}
	return e.Exact.Check(ctx, p, m)
}

// conclusive says whether a bounded engine's result decides the question:
// a counterexample, or a proof whose bound covered every execution.
func conclusive(r *engines.Result) bool {
	switch r.Status {
	case engines.Unsafe:
		return r.Trace != nil
	case engines.Safe:
		return r.Bound == ""
	}
	return false
}
