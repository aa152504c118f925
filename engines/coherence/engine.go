package coherence

import (
	"context"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// Defaults of the options.
const (
	// DefaultMaxStates is the abstract-state budget of one abstraction's
	// search when Engine.MaxStates is 0.
	DefaultMaxStates = 5_000_000
	// DefaultMaxK is the largest k the refinement tries when Engine.MaxK
	// is 0.
	DefaultMaxK = 2
	// DefaultReplayStates is the budget of concrete states of the search
	// for an execution that follows an abstract counterexample.
	DefaultReplayStates = 1_000_000
)

// Engine is the partial-coherence engine. The zero value starts from the
// Set abstraction and refines up to FD_DefaultMaxK.
type Engine struct {
	// Abstraction is the first abstraction tried.
	Abstraction Abstraction
	// MaxK is the largest k the refinement tries after a spurious
	// counterexample (0: DefaultMaxK); NoRefine tries Abstraction alone.
	MaxK     int
	NoRefine bool
	// MaxStates is the abstract-state budget of each abstraction's search
	// (0: DefaultMaxStates).
	MaxStates int64
	// ReplayStates is the concrete-state budget of the search for an
	// execution that follows an abstract counterexample (0:
	// DefaultReplayStates).
	ReplayStates int64
	// Observe, when set, is called after each abstraction's search.
	Observe func(Round)
}

// Round is the outcome of one abstraction's search.
type Round struct {
	Abstraction Abstraction
	// Outcome is "safe", "unsafe", "spurious", or the reason a budget
	// ended the round.
	Outcome string
	// States counts the abstract states; Expansions their expansions (a
	// PD state is expanded again when its sets grow).
	States, Expansions int64
	Duration           time.Duration
}

// Name returns "coherence".
func (*Engine) Name() string { return "coherence" }

// Check decides whether a bad state of p is reachable under m (SC, TSO
// or PSO): safe when no abstract bad state is reachable (a proof for
// unbounded buffers), unsafe when an abstract counterexample is followed
// by a concrete execution (replayed), else inconclusive.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	if m != model.SC && m != model.TSO && m != model.PSO {
		return nil, &engines.Unsupported{Engine: "the coherence engine", What: "the " + m.String() + " memory model"}
	}
	p.Index()
	maxStates := e.MaxStates
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	maxK := e.MaxK
	if maxK <= 0 {
		maxK = DefaultMaxK
	}
	replay := e.ReplayStates
	if replay <= 0 {
		replay = DefaultReplayStates
	}
	res := &engines.Result{Model: m}
	abs := e.Abstraction
	for {
		rstart := time.Now()
		s := newSearch(p, m, abs, maxStates, engines.MeterOf(ctx))
		reason, err := s.run(ctx)
		if err != nil {
			return nil, err
		}
		res.Stats.States += int64(len(s.nodes))
		round := Round{Abstraction: abs, States: int64(len(s.nodes)), Expansions: s.expanded}
		next := abs.Next()
		switch {
		case reason != "":
			res.Status, res.Reason = engines.Inconclusive, fmt.Sprintf("%s (%s abstraction)", reason, abs.Title())
			round.Outcome = reason
		case !s.found():
			res.Status = engines.Safe
			round.Outcome = "safe"
		default:
			init, evs := s.path()
			t, exhausted := follow(ctx, p, m, init, evs, replay)
			switch {
			case t != nil:
				res.Status, res.Trace = engines.Unsafe, t
				round.Outcome = "unsafe"
			case exhausted:
				round.Outcome = "unreplayed"
				res.Status, res.Reason = engines.Inconclusive, fmt.Sprintf(
					"no concrete execution following the %s abstraction's counterexample (%d steps) was found within %d concrete states; try %s",
					abs.Title(), len(evs), replay, next.Title())
			default:
				round.Outcome = "spurious"
				res.Status, res.Reason = engines.Inconclusive, fmt.Sprintf(
					"the %s abstraction's counterexample (%d steps) is spurious: no concrete execution follows it; try %s",
					abs.Title(), len(evs), next.Title())
			}
		}
		round.Duration = time.Since(rstart)
		if e.Observe != nil {
			e.Observe(round)
		}
		if res.Status == engines.Inconclusive && reason == "" && m != model.SC && !e.NoRefine && next.K <= maxK {
			abs = next
			continue
		}
		break
	}
	res.Stats.Duration = time.Since(start)
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}
