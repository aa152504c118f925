// Package auto chooses the engine for each program the way fencecheck's
// analyzer does: the predicate engine when some variable or register has
// no finite domain, the explicit engine when every process is loop-free
// (its store buffers then hold at most the writes of a path, and the search
// is exact), and otherwise the sb engine, exact under TSO for finite
// programs. For programs of PortfolioGoroutines goroutines or more, the
// bounded engine runs first as a bug finder (engines/portfolio): the exact
// searches grow with the product of the goroutines' states, the bounded
// encoding with the number of accesses. For finite programs of that many
// goroutines, the thread-modular engine (engines/modular) first tries to
// prove the program safe from views of a few goroutines at a time, within
// modular.FirstWork views: the exact searches store every combination of
// every goroutine's state, which the fenced 5-process bakery has more than
// a hundred million of.
package auto

import (
	"context"
	"sync"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/modular"
	"github.com/fencecheck/fencecheck/engines/portfolio"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model"
)

// Names of the exact engines Exact chooses from.
const (
	Explicit = "explicit"
	SB       = "sb"
	Pred     = "pred"
)

// PortfolioGoroutines is the number of goroutines from which the bounded
// engine runs before the exact one.
const PortfolioGoroutines = 3

// Exact returns the name of the exact engine for p: Pred, Explicit or SB.
func Exact(p *model.Program) string {
	switch _, loopFree := explicit.MaxWritesOnPath(p); {
	case !p.Finite():
		return Pred
	case loopFree:
		return Explicit
	default:
		return SB
	}
}

// Portfolio returns exact with the engines that run before it on
// programs of PortfolioGoroutines goroutines or more: the bounded engine
// as a bug finder and, for finite programs, before that the thread-modular
// engine as a prover.
func Portfolio(exact engines.Engine, finite bool) engines.Engine {
	var eng engines.Engine = portfolio.WithBMC(exact)
	if finite {
		eng = &modular.First{Exact: eng}
	}
	return eng
}

// Goroutines returns the number of processes of p that take a step: a
// model's main process, when it only spawns the others, has none.
func Goroutines(p *model.Program) int {
	n := 0
	for _, q := range p.Procs {
		if len(q.Trans) > 0 {
			n++
		}
	}
	return n
}

// Engine checks each program with the engine chosen for it. The engines it
// makes are kept by name, so that the checks of one fence inference share
// one engine (and what it learns: the predicate engine's predicates, the
// portfolio's knowledge that the bounded engine found nothing).
type Engine struct {
	// MaxStates is the state or constraint budget of each engine call (0:
	// each engine's default).
	MaxStates int64

	mu   sync.Mutex
	made map[string]engines.Engine
	last string // the name of the engine of the last check
}

// Name returns "auto".
func (*Engine) Name() string { return "auto" }

// For returns the engine that checks p.
func (e *Engine) For(p *model.Program) engines.Engine {
	name := Exact(p)
	bounded := Goroutines(p) >= PortfolioGoroutines
	key := name
	if bounded {
		key += "+bmc"
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if eng, ok := e.made[key]; ok {
		e.last = eng.Name()
		return eng
	}
	var eng engines.Engine
	switch name {
	case Pred:
		eng = &pred.Engine{MaxStates: e.MaxStates}
	case Explicit:
		eng = &explicit.Engine{MaxStates: e.MaxStates}
	default:
		eng = &sb.Engine{MaxConstraints: e.MaxStates}
	}
	if bounded {
		eng = Portfolio(eng, name != Pred)
	}
	if e.made == nil {
		e.made = map[string]engines.Engine{}
	}
	e.made[key] = eng
	e.last = eng.Name()
	return eng
}

// Last returns the name of the engine chosen for the program of the last
// check (or For), such as "sb+bmc"; "" before the first.
func (e *Engine) Last() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// Check decides whether a bad state of p is reachable under m with the
// engine chosen for p.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	return e.For(p).Check(ctx, p, m)
}
