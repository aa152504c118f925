// Package explore decides reachability of bad states by forward
// explicit-state search (breadth first) over the concrete semantics of
// package model: the search of the explicit engine (engines/explicit), and
// the bounded and exact searches that the single-buffer engine
// (engines/sb) runs in its rounds.
//
// Under SC the search is complete for programs with finite domains. Under TSO
// the store buffers are unbounded, so the search bounds them. The bound is
// exact when the control graph bounds the buffers (see [facts.DrainBound]: fences
// and locked operations empty them, so a program whose loops write only
// between such operations has bounded buffers); a search with a larger bound
// than any buffer reaches loses nothing. Otherwise the search starts from
// DefaultBound and doubles the bound while it disabled a write (up to
// MaxAutoBound); a search in which the bound disabled no write is exact as
// well. Only when the bound did cut writes off is a Safe answer qualified,
// "up to buffer bound N". When every read of the program finds its
// process's buffer empty (see [facts.LoadsDrained]: a fence or a locked operation
// between every plain write and the next read), TSO has the behaviours of
// SC, and the search runs without buffers; its traces become TSO traces in
// which every store leaves its buffer at once.
//
// Under PSO (one buffer per process and variable) the bound is per process
// and variable, and is exact under the same condition: the drain bound
// bounds the stores to one variable as well as all of them. PSO lets
// stores leave out of order even when every read finds its buffer empty,
// so the search always keeps the buffers; and it runs without the
// partial-order reduction, whose conditions are stated for one FIFO buffer
// per process.
//
// The search reduces the interleavings it explores (both reductions are on
// by default; Options.NoPOR and Options.NoSymmetry turn them off):
//   - partial-order reduction: in a state, the steps of a set of processes
//     closed under conflicts (a stubborn set whose steps are invisible to
//     the bad states, with the breadth-first cycle proviso) stand for all
//     (see por.go); steps that change nothing, or only start another round
//     of a spin loop, are dropped; a process's local, invisible step that
//     is its only enabled one is taken right away, up to 64 in a row,
//     without storing the states between (search.go, accelerate): Go's
//     lowering makes many (loop indices, case splits of an array index).
//     Such a run of steps depends on the process's own location and
//     registers only, so each planner caches it by them (accel.go);
//   - symmetry reduction: processes that run the same code on the same
//     variables, with bad states closed under their exchange, are
//     interchangeable; the search visits one state of every orbit ([Classes]).
//
// Counterexamples are the paths the search took, replayed on the program: real
// executions, shortest among the interleavings explored (with the reductions
// off, shortest of all).
//
// A [Search] is a search that a state budget stopped and a larger budget
// resumes where it stopped: the single-buffer engine's rounds grow one
// search's budget instead of searching the first states again.
//
// A [Hunt] searches depth first, without reductions, for a bad state only
// (its answers are replayed traces, never Safe): it finds a bug at the end
// of a long run long before the breadth-first search, which reaches that
// depth only after nearly every state.
//
// States are hashed through a compact variable-length encoding of locations,
// registers, memory and buffers. Registers that are dead at a process's
// location (see [facts.Dead]) are reset to 0 first, which merges states with the
// same future. A program whose initial values '*' give more initial states
// than the state budget (a wide domain) is answered inconclusive at once.
package explore

import (
	"context"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// DefaultBound is the store-buffer bound used under TSO when neither the
// options nor the program's shape give one.
const DefaultBound = 4

// DefaultMaxStates is the state budget when Options.MaxStates is 0.
const DefaultMaxStates = 20_000_000

// Options configure a search. The zero value searches with the exact
// buffer bound when there is one, within DefaultMaxStates states, with
// both reductions.
type Options struct {
	// Bound limits every store buffer under TSO (the stores to each
	// variable under PSO); 0 picks the exact bound
	// (facts.DrainBound) when it is finite, else grows from DefaultBound.
	Bound int
	// MaxStates ends the search as inconclusive; 0 means DefaultMaxStates.
	MaxStates int64
	// KeepDead turns off the reset of dead registers, so that the states
	// counted are the program's own (for measuring reductions made before
	// the search).
	KeepDead bool
	// NoPOR turns off the partial-order reduction.
	NoPOR bool
	// NoSymmetry turns off the symmetry reduction.
	NoSymmetry bool
	// KeepBuffers searches x86-TSO with store buffers even when every read
	// of the program finds its buffer empty (facts.LoadsDrained), where
	// the search otherwise runs under SC, which has the same behaviours.
	KeepBuffers bool
	// Workers is how many goroutines compute successors at once (0:
	// GOMAXPROCS). The states visited and the answer do not depend on it.
	Workers int
	// Target, when set, is what the search looks for instead of the
	// program's bad states and faults: a state where it holds (it is asked
	// of faulting states too, which have no successors). Then the search
	// may call it from several goroutines at once, and it runs without partial-order reduction and
	// without resetting dead registers (which know only the bad states),
	// and an Unsafe answer's trace, which ends in such a state, is not
	// checked against the bad states: the caller checks it.
	Target func(model.State) bool
}

// Check searches the reachable states of p under m with the options o: an
// Unsafe answer carries a replayed trace, a Safe one is qualified by the
// buffer bound when the bound disabled a write, and an Inconclusive one
// says which budget ran out.
func Check(ctx context.Context, p *model.Program, m model.Model, o Options) (*engines.Result, error) {
	start := time.Now()
	c, err := newConfig(p, m, &o)
	if err != nil {
		return nil, err
	}
	maxStates := budgetOf(o.MaxStates)
	res := &engines.Result{Model: m}
	if c.tooManyInitial(res, maxStates) {
		res.Stats.Duration = time.Since(start)
		return res, nil
	}
	budget := maxStates
	var bounded *engines.Result // the Safe answer of the last round, up to its bound
	for {
		s := newSearch(p, c.under, c.bound, &o, budget, engines.MeterOf(ctx))
		reason, err := s.run(ctx)
		if err != nil {
			return nil, err
		}
		res.Stats.States += int64(len(s.nodes))
		if reason != "" && bounded != nil {
			// A deeper bound did not fit the budget: answer with the last one.
			res.Status, res.Bound = engines.Safe, bounded.Bound
			break
		}
		cut, err := c.outcome(s, reason, res)
		switch {
		case err != nil:
			return nil, err
		case cut && o.Bound == 0 && 2*c.bound <= MaxAutoBound && maxStates-res.Stats.States > 0:
			// Buffers may grow beyond the bound: search again with twice
			// the bound, within a budget proportional to this round's.
			bounded = &engines.Result{Bound: boundText(m, c.bound)}
			c.bound *= 2
			budget = min(maxStates-res.Stats.States, autoGrowth*int64(len(s.nodes)))
			continue
		case cut:
			res.Status, res.Bound = engines.Safe, boundText(m, c.bound)
		}
		break
	}
	res.Stats.Duration = time.Since(start)
	if o.Target != nil {
		return res, nil
	}
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// config is what a search of a program under a memory model runs with: the
// model it searches under (SC for TSO when every read finds its buffer
// empty), the buffer bound and whether the bound is exact.
type config struct {
	p        *model.Program
	m, under model.Model
	bound    int
	exact    bool
}

// newConfig validates p and chooses how to search it under m with o.
func newConfig(p *model.Program, m model.Model, o *Options) (*config, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	if o.Target != nil {
		o.NoPOR, o.KeepDead = true, true
	}
	c := &config{p: p, m: m, under: m, exact: true}
	switch {
	case m == model.TSO && !o.KeepBuffers && facts.LoadsDrained(p):
		// No read can see a buffered store: the behaviours are SC's,
		// and the traces are turned into TSO traces at the end.
		c.under = model.SC
	case m.Buffered():
		c.bound, c.exact = o.tsoBound(p)
	}
	return c, nil
}

// budgetOf is the state budget of the option MaxStates.
func budgetOf(maxStates int64) int64 {
	if maxStates <= 0 {
		return DefaultMaxStates
	}
	return maxStates
}

// tooManyInitial answers res inconclusive, and reports so, when the
// program has more initial states than the budget.
func (c *config) tooManyInitial(res *engines.Result, maxStates int64) bool {
	if n := facts.InitialStates(c.p); n > maxStates {
		res.Status = engines.Inconclusive
		res.Reason = engines.TooManyInitial(n, maxStates)
		return true
	}
	return false
}

// outcome answers res from the search s, stopped by reason ("" when it
// ended): inconclusive, unsafe with the trace to the bad state found, or
// safe when the search is exact. It reports cut, and leaves res alone,
// when the search ended without a bad state but the bound disabled a
// write, so that the buffers may outgrow what it searched.
func (c *config) outcome(s *search, reason string, res *engines.Result) (cut bool, err error) {
	switch {
	case reason != "":
		res.Status, res.Reason = engines.Inconclusive, reason
	case s.badNode >= 0:
		t, err := s.trace(s.badNode)
		if err != nil {
			return false, err
		}
		if c.under != c.m {
			if t, err = c.p.AsTSO(t); err != nil {
				return false, fmt.Errorf("internal error: an SC trace of a program whose reads find their buffers empty is no TSO trace: %w", err)
			}
		}
		res.Status, res.Trace = engines.Unsafe, t
	case c.exact || !s.blocked:
		// The bound never disabled a write: the search is exact.
		res.Status = engines.Safe
	default:
		return true, nil
	}
	return false, nil
}

// A Search is a search that a state budget stops and a larger budget
// resumes where it stopped, without visiting again the states it
// visited: the states a run visits in all, and its answer, are those of
// Check with the run's budget. Its buffer bound is fixed: Options.Bound,
// else the drain bound when it is finite, else DefaultBound (it does not
// grow as Check's does). The single-buffer engine's rounds resume one
// search with growing budgets.
type Search struct {
	c *config
	o Options
	s *search
}

// NewSearch prepares the search of p under m with the options o (whose
// MaxStates each Run replaces).
func NewSearch(p *model.Program, m model.Model, o Options) (*Search, error) {
	c, err := newConfig(p, m, &o)
	if err != nil {
		return nil, err
	}
	return &Search{c: c, o: o}, nil
}

// Run goes on with the search until it ends or has visited maxStates
// states in all (0: DefaultMaxStates), and answers as Check does;
// Stats.States counts the states this run visited, Stats.Duration its
// time.
func (x *Search) Run(ctx context.Context, maxStates int64) (*engines.Result, error) {
	start := time.Now()
	maxStates = budgetOf(maxStates)
	res := &engines.Result{Model: x.c.m}
	if x.c.tooManyInitial(res, maxStates) {
		res.Stats.Duration = time.Since(start)
		return res, nil
	}
	if x.s == nil {
		x.s = newSearch(x.c.p, x.c.under, x.c.bound, &x.o, maxStates, nil)
	}
	s := x.s
	before := len(s.nodes)
	s.maxStates, s.meter = maxStates, engines.MeterOf(ctx)
	reason, err := s.run(ctx)
	if err != nil {
		return nil, err
	}
	res.Stats.States = int64(len(s.nodes) - before)
	cut, err := x.c.outcome(s, reason, res)
	if err != nil {
		return nil, err
	}
	if cut {
		res.Status, res.Bound = engines.Safe, boundText(x.c.m, x.c.bound)
	}
	res.Stats.Duration = time.Since(start)
	if err := engines.Verify(x.c.p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// boundText is the Bound of a Safe answer under m whose buffer bound cut
// writes off: "buffer bound N", per process and variable under PSO.
func boundText(m model.Model, bound int) string {
	if m == model.PSO {
		return fmt.Sprintf("buffer bound %d per process and variable", bound)
	}
	return fmt.Sprintf("buffer bound %d", bound)
}

// MaxAutoBound is the largest buffer bound the search tries by itself (when
// Options.Bound is 0) for a program whose buffers the control graph does not
// bound (see [facts.DrainBound]): it starts at DefaultBound and doubles the bound
// while a write was disabled by it, within a state budget of autoGrowth
// times the states of the previous round.
const MaxAutoBound = 16

const autoGrowth = 8
