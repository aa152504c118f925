package bmc_test

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/model"
)

var long = flag.Bool("long", false, "run the long differential tests and the larger benchmarks")

// requireZ3 skips t when Z3 cannot be used.
func requireZ3(t testing.TB) {
	t.Helper()
	if !smt.Available || smt.Version() == "" {
		t.Skip("Z3 is unavailable in this build")
	}
}

// smtAvailable reports whether Z3 can be used.
func smtAvailable() bool { return smt.Available && smt.Version() != "" }

// raceOnce asks the race question of e once: is there an SC execution, in which
// every process takes at most e's backward jumps, that reaches a
// state where two conflicting accesses of different processes to one
// variable (at least one a write, at least one plain) are both enabled? By
// Boehm and Adve's theorem that is whether the program has a
// happens-before data race. Unsafe comes with one such race and its SC
// trace of p (replayed on the query program, whose bad states are the
// pairs' locations; see race.Query); Safe carries the bound for a
// program with loops; a program that faults under SC before a race is
// found gives Inconclusive.
func raceOnce(ctx context.Context, e *bmc.Engine, p *model.Program) (*race.Race, *engines.Result, error) {
	pairs := race.Pairs(p)
	if len(pairs) == 0 {
		return nil, &engines.Result{Status: engines.Safe, Model: model.SC}, nil
	}
	q, groups := race.Query(p, pairs)
	r, err := e.Check(ctx, q, model.SC)
	if err != nil || r.Status != engines.Unsafe {
		return nil, r, err
	}
	states, err := q.Replay(r.Trace)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: a race trace does not replay: %w", err)
	}
	last := states[len(states)-1]
	if last.Fault != nil {
		r.Status, r.Reason = engines.Inconclusive, "the program faults under SC ("+last.Fault.Msg+") before a race is found"
		return nil, r, nil
	}
	bi := q.MatchBad(last)
	if bi < 0 {
		return nil, nil, fmt.Errorf("internal error: a race trace ends with no pair of accesses enabled")
	}
	return &race.Race{Pair: pairs[groups[bi][0]], Trace: r.Trace}, r, nil
}
