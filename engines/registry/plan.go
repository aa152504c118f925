package registry

import (
	"fmt"
	"strings"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/modular"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/portfolio"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// PortfolioGoroutines is the number of goroutines (see [Goroutines]) from
// which the auto mode runs the bounded engine before the exact one, and for
// finite programs the thread-modular engine before both: the exact searches
// grow with the product of the goroutines' states, the bounded encoding
// with the number of accesses, and the views of the thread-modular engine
// with a few goroutines at a time.
const PortfolioGoroutines = 3

// MainProcess is the name of the process that runs a system function's own
// body after its go statements (package extract names it so): it mostly
// waits for the goroutines and looks at what they did, and [Goroutines]
// does not count it.
const MainProcess = "main"

// Goroutines returns the number of goroutines of p that the choice of
// engines counts: the processes that take a step, but for [MainProcess].
// For a Go system these are the goroutines its go statements start (and
// the processes of its timers and deadlines); for a model file without a
// process called main, every process that steps.
func Goroutines(p *model.Program) int {
	n := 0
	for _, q := range p.Procs {
		if len(q.Trans) > 0 && q.Name != MainProcess {
			n++
		}
	}
	return n
}

// A Question is what the engines of a plan are asked.
type Question uint8

const (
	// Reach: is a bad state reachable under x86-TSO or SC? The question
	// of the fence inference, and of fencemodel check and fences.
	Reach Question = iota
	// Races: does the program race under the Go memory model, and, when it
	// does not, is a bad state reachable under SC? The analyzer's first
	// question about a system.
	Races
	// Pairs: which pairs of accesses race? Asked of a racy program with
	// happens-before bits, a larger program than the Races question's,
	// after that question has found it racy (engines/question/race's second phase),
	// unless the engine of the Races question answers it itself
	// (race.Enumerator).
	Pairs
)

// The state budgets of the Pairs question's engine: the program it
// searches is larger, and the Races question has already decided that it
// races.
const (
	PairsExplicitStates = 500_000
	PairsPredStates     = 200_000
)

// A Plan is the engines that answer a question about a program, in the
// order they run: the thread-modular proof attempt, the bounded bug
// finder, then the exact engine, which decides what they leave open.
type Plan struct {
	// Prove: the thread-modular engine first tries to prove the program
	// safe, within modular.FirstWork views (modular.First).
	Prove bool
	// Bounded: the bounded engine then looks for a counterexample, within
	// the small budget of WithBMC, the same on every machine.
	Bounded bool
	// Exact is the engine that decides the rest.
	Exact *Entry
	// MaxStates is the exact engine's budget (0: the options').
	MaxStates int64
}

// String names the plan as its engine's Name does: "modular+sb+bmc".
func (pl Plan) String() string {
	s := pl.Exact.Name
	if pl.Bounded {
		s += BoundedSuffix
	}
	if pl.Prove {
		s = Modular + "+" + s
	}
	return s
}

// New makes the plan's engine with the options o.
func (pl Plan) New(o Options) engines.Engine {
	if pl.MaxStates != 0 {
		o.MaxStates = pl.MaxStates
	}
	return pl.Wrap(pl.Exact.New(o))
}

// Wrap returns exact, an engine made for pl.Exact, with the engines that
// run before it.
func (pl Plan) Wrap(exact engines.Engine) engines.Engine {
	eng := exact
	if pl.Bounded {
		eng = WithBMC(eng)
	}
	if pl.Prove {
		eng = &modular.First{Exact: eng}
	}
	return eng
}

// The budget of the bounded engine that [WithBMC] runs first: at most
// bmcCalls solver calls of at most bmcSolverLimit of Z3's resource units
// each, about 2 s on a 2-core machine for a 4-goroutine bakery, and the
// same answer on any machine.
const (
	bmcCalls       = 20
	bmcSolverLimit = 1_000_000
)

// WithBMC returns exact with the bounded model checker of engines/bmc run
// first, in a portfolio.Engine, under a small work budget that does not
// depend on the machine, each check in a fresh Z3 context so that its
// answer does not depend on the checks before it either.
func WithBMC(exact engines.Engine) *portfolio.Engine {
	return &portfolio.Engine{Exact: exact, Bounded: &bmc.Engine{MaxCalls: bmcCalls, SolverLimit: bmcSolverLimit, Fresh: true}}
}

// A DataError says that the engine asked for cannot take the program's
// data: it needs finite domains, and some variable or register has none.
type DataError struct {
	// Engine is the engine's name.
	Engine string
}

// Error names the engine and what it needs.
func (e *DataError) Error() string {
	return fmt.Sprintf("the %s engine needs finite domains, and the program has data without one", e.Engine)
}

// Choose returns the plan by which the engine called name answers the
// question q about p. It is the one policy of fencecheck's engine choice:
//
//   - auto (the analyzer's default and fencemodel's): for Reach, pred when
//     some variable or register of p has no finite domain, explicit when
//     every process is loop-free (its store buffers then hold at most the
//     writes of a path, and its search is exact), else sb, exact under TSO
//     for finite programs; for Races, pred without finite domains, else
//     explicit, whose SC search is complete. From [PortfolioGoroutines]
//     goroutines on, bmc runs before the exact engine as a bug finder,
//     and for finite programs the thread-modular engine before both as a
//     prover (for Races only with finite data).
//   - any other engine answers Reach itself, when it takes p's data (else
//     the error is a *DataError); Races goes to pred without finite
//     domains, else to the engine its Entry.Races names.
//   - Pairs goes to explicit for finite data and to pred otherwise, each
//     with its budget (PairsExplicitStates, PairsPredStates).
func Choose(name string, p *model.Program, q Question) (Plan, error) {
	e := Lookup(name)
	if e == nil {
		return Plan{}, fmt.Errorf("unknown engine %q (want %s)", name, List(Names(entries)))
	}
	finite := p.Finite()
	switch {
	case q == Pairs && finite:
		return Plan{Exact: Lookup(Explicit), MaxStates: PairsExplicitStates}, nil
	case q == Pairs:
		return Plan{Exact: Lookup(Pred), MaxStates: PairsPredStates}, nil
	case q == Races && !finite:
		return Plan{Exact: Lookup(Pred)}, nil
	case name == Auto:
		exact := Lookup(e.Races)
		if q == Reach {
			exact = exactFor(p)
		}
		many := Goroutines(p) >= PortfolioGoroutines
		return Plan{Prove: many && finite, Bounded: many, Exact: exact}, nil
	case q == Races && e.Races == "":
		return Plan{}, fmt.Errorf("the %s engine does not answer the race question", name)
	case q == Races:
		return Plan{Exact: Lookup(e.Races)}, nil
	case e.Data == Finite && !finite:
		return Plan{}, &DataError{Engine: name}
	default:
		return Plan{Exact: e}, nil
	}
}

// A ModelError says that the engine asked for does not decide the memory
// model asked for (PSO).
type ModelError struct {
	// Engine is the engine's name, Model the memory model.
	Engine string
	Model  model.Model
}

// Error names the engine, the model and the engines that decide it.
func (e *ModelError) Error() string {
	return fmt.Sprintf("the %s engine does not decide %s (the engines that do: %s)", e.Engine, strings.ToUpper(e.Model.String()), List(Names(ForPSO())))
}

// ChooseFor is [Choose] for a question asked under the memory model m. The
// Reach question under PSO goes to an engine that decides PSO (see
// Entry.PSO), alone: with auto, the explicit engine (the thread-modular
// and bounded engines decide SC and x86-TSO only); another engine that
// does not decide PSO is refused with a *ModelError. Every other question
// (the race questions are asked under SC) and model is Choose's.
func ChooseFor(name string, p *model.Program, q Question, m model.Model) (Plan, error) {
	if m != model.PSO || q != Reach {
		return Choose(name, p, q)
	}
	e := Lookup(name)
	switch {
	case e == nil:
		return Choose(name, p, q)
	case name == Auto:
		e = Lookup(Explicit)
		if !p.Finite() {
			return Plan{}, &DataError{Engine: Explicit}
		}
	case !e.PSO:
		return Plan{}, &ModelError{Engine: name, Model: m}
	case e.Data == Finite && !p.Finite():
		return Plan{}, &DataError{Engine: name}
	}
	return Plan{Exact: e}, nil
}

// exactFor returns the exact engine of the auto mode for the Reach question
// about p: pred, explicit or sb (explicit too for a program larger than
// sb takes, sb.Fits).
func exactFor(p *model.Program) *Entry {
	switch _, loopFree := facts.MaxWritesOnPath(p); {
	case !p.Finite():
		return Lookup(Pred)
	case loopFree || !sb.Fits(p):
		return Lookup(Explicit)
	default:
		return Lookup(SB)
	}
}
