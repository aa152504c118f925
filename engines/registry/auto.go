package registry

import (
	"context"
	"sync"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// AutoEngine is the engine called auto: it checks each program with the
// engine that [Choose] plans for its Reach question. The engines it makes
// are kept by plan, so that the checks of one fence inference share one
// engine (and what it learns: the predicate engine's predicates, the
// portfolio's knowledge that the bounded engine found nothing).
type AutoEngine struct {
	// Options are the options of the engines it makes.
	Options Options

	mu   sync.Mutex
	made map[string]engines.Engine
	last string // the name of the engine of the last check
}

// Name returns "auto".
func (*AutoEngine) Name() string { return Auto }

// For returns the engine that checks p under x86-TSO or SC.
func (e *AutoEngine) For(p *model.Program) engines.Engine {
	eng, err := e.ForModel(p, model.TSO)
	if err != nil {
		panic("registry: the auto mode has no plan: " + err.Error())
	}
	return eng
}

// ForModel returns the engine that checks p under m (see [ChooseFor]), or
// why there is none: under PSO, a program without finite domains.
func (e *AutoEngine) ForModel(p *model.Program, m model.Model) (engines.Engine, error) {
	pl, err := ChooseFor(Auto, p, Reach, m)
	if err != nil {
		return nil, err
	}
	key := pl.String()
	e.mu.Lock()
	defer e.mu.Unlock()
	if eng, ok := e.made[key]; ok {
		e.last = eng.Name()
		return eng, nil
	}
	eng := pl.New(e.Options)
	if e.made == nil {
		e.made = map[string]engines.Engine{}
	}
	e.made[key] = eng
	e.last = eng.Name()
	return eng, nil
}

// Last returns the name of the engine chosen for the program of the last
// check (or For), such as "sb+bmc"; "" before the first.
func (e *AutoEngine) Last() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// Check decides whether a bad state of p is reachable under m with the
// engine chosen for p.
func (e *AutoEngine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	eng, err := e.ForModel(p, m)
	if err != nil {
		return nil, err
	}
	return eng.Check(ctx, p, m)
}
