// Package engines defines what every reachability engine of fencecheck answers
// and how: one question (is a bad state of this program reachable under this
// memory model?), one result type, and one trace type ([model.Trace]).
//
// The engines live in subpackages (explicit, sb, pred, bmc, bdd, zone,
// modular, coherence), each of which imports this package and none of the others; the
// libraries they are built from live under lib, the wrappers that run around
// any Engine under wrap, the questions asked of any Engine (fence inference,
// data races) under question, and the plan that composes them in registry
// (docs/architecture.md draws the floors). A counterexample returned through
// this package has always been replayed by [model.Program.Replay].
//
// Besides their own budgets and the context's deadline, the engines charge
// the [Meter] of their context with the states, constraints and solver calls
// they spend, and stop with an Inconclusive result once it runs out: a
// bound on the work of many engine calls (a fence inference, a race check)
// whose answer is the same on every machine.
package engines

import (
	"context"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/model"
)

// Status is the outcome of a check.
type Status uint8

const (
	// Safe: no bad state is reachable (within Result.Bound, when it is set).
	Safe Status = iota
	// Unsafe: a bad state is reachable; Result.Trace shows how.
	Unsafe
	// Inconclusive: a budget ran out; Result.Reason says which.
	Inconclusive
)

// String returns "safe", "unsafe" or "inconclusive".
func (s Status) String() string {
	switch s {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	default:
		return "inconclusive"
	}
}

// Result is an engine's answer.
type Result struct {
	Status Status
	Model  model.Model
	// Trace is a replayed counterexample when Status is Unsafe.
	Trace *model.Trace
	// Bound, when non-empty, qualifies a Safe answer ("store buffers of at most 2
	// entries"): the answer is not a proof beyond it.
	Bound string
	// Reason says which budget ran out when Status is Inconclusive.
	Reason string
	Stats  Stats
}

// Stats are an engine's counters.
type Stats struct {
	States   int64 // states or constraints explored
	Duration time.Duration
}

// String summarises r in one line.
func (r *Result) String() string {
	s := r.Status.String()
	switch {
	case r.Status == Safe && r.Bound != "":
		s += " up to " + r.Bound
	case r.Status == Inconclusive:
		s += ": " + r.Reason
	}
	return fmt.Sprintf("%s under %s (%d states, %v)", s, r.Model, r.Stats.States, r.Stats.Duration.Round(time.Microsecond))
}

// Engine decides reachability of bad states.
type Engine interface {
	// Name is the engine's flag value, as engines/registry lists it
	// ("explicit", "sb+bmc" for engines run one after the other).
	Name() string
	// Check decides whether a bad state of p is reachable under m. A context
	// deadline ends the search with an Inconclusive result, not an error;
	// errors are for programs the engine cannot take.
	Check(ctx context.Context, p *model.Program, m model.Model) (*Result, error)
}

// Verify replays r's trace against p's semantics; an engine calls it before
// returning an Unsafe result. A trace that does not replay is an internal
// error of the engine, never a report.
func Verify(p *model.Program, r *Result) error {
	if r.Status != Unsafe {
		return nil
	}
	if r.Trace == nil {
		return fmt.Errorf("internal error: unsafe result without a trace")
	}
	if _, err := p.Replay(r.Trace); err != nil {
		return fmt.Errorf("internal error: counterexample does not replay under %v: %w", r.Trace.Model, err)
	}
	return nil
}

// Unsupported is the error of an engine that cannot take a program: a limit
// of the engine (an operation it cannot express, more variables than it
// handles), not a fault of the program nor of fencecheck.
type Unsupported struct {
	// Engine names the engine ("the predicate engine").
	Engine string
	// What it cannot take, as a noun phrase ("a division by a value that
	// is not a constant").
	What string
	// Pos is the source position of the transition that needs it, when
	// one does.
	Pos model.Pos
}

// Error says what the engine cannot take and where.
func (u *Unsupported) Error() string {
	s := u.Engine + " cannot take " + u.What
	if u.Pos.IsValid() {
		s += " at " + u.Pos.String()
	}
	return s
}

// At returns u located at pos, unless it already has a position.
func (u *Unsupported) At(pos model.Pos) *Unsupported {
	if u.Pos.IsValid() {
		return u
	}
	v := *u
	v.Pos = pos
	return &v
}
