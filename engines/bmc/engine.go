package bmc

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// DefaultUnroll is the number of backward jumps per process when
// Engine.Unroll is 0.
const DefaultUnroll = 2

// DefaultMaxWork is the work budget when Engine.MaxWork is 0: solver calls
// plus axiom instances given to the solver.
const DefaultMaxWork = 20_000_000

// pairsPerWork is the share of the work budget the encoding's pairs of a
// read and a write may take: beyond MaxWork/pairsPerWork of them the
// check ends inconclusive before it encodes (a system of inlined library
// code: 3.3 million pairs took 2 GiB; the largest systems the bounded
// engine decides have a few thousand).
const pairsPerWork = 50

// Bias chooses the initial link sets W(r) of refinement (§7.1 S1).
type Bias uint8

const (
	// BiasLocal starts every read with the writes of its own process and
	// the initial write: the serial and largely serial executions of §5.3.2.
	BiasLocal Bias = iota
	// BiasSync is BiasLocal, but reads of synchronisation variables
	// (those some locked operation or atomic load accesses) start with
	// every write: the IA couples the synchronisation from the start.
	BiasSync
	// BiasNone starts every read with its whole default link set: an
	// over-approximating (OIA) start, refined by RED-O only.
	BiasNone
)

// Engine decides whether a bad state is reachable, or a fault, within an
// unrolling bound, by the bounded axiomatic encoding of the package
// documentation. The zero value is ready to use: refinement of mixed
// interference abstractions, DefaultUnroll backward jumps per process.
type Engine struct {
	// Unroll is the number of backward jumps (loop iterations) each
	// process may take; 0 means DefaultUnroll, and a negative value none.
	Unroll int
	// Full instantiates every axiom at once (§4.1, with the pruning of
	// §4.2) instead of refining an interference abstraction (§6.3).
	Full bool
	// Bias is the link set W(r) a read gets when it enters R.
	Bias Bias
	// SyncReads starts each group of goals with R holding the reads of
	// synchronisation variables and the final reads among those that can
	// matter to it (the control-state abstraction of §5.3.1), with their
	// biased link sets, instead of the cheap ones with every instance;
	// other reads enter R when a model needs them.
	SyncReads bool
	// NoLemmas leaves out the lock lemmas (§7.1 S2b).
	NoLemmas bool
	// Triples makes RED-O add only the instances of Π3 that a model
	// violates, as in §6.3, instead of the whole row σ({r}, {w}, cW(r))
	// of a link (r, w) that violates one.
	Triples bool
	// MaxWork ends the check as inconclusive once the solver calls plus the
	// axiom instances exceed it; 0 means DefaultMaxWork.
	MaxWork int64
	// SolverLimit bounds each solver call in Z3's resource units (0: no
	// bound); a call that exceeds it ends the check as inconclusive. Unlike
	// a deadline it does not depend on the machine, so a check that uses
	// it together with MaxWork gives the same answer everywhere.
	SolverLimit uint32
	// Fresh gives each check a new Z3 context instead of one a check
	// before it used: Z3's search depends on the terms its context already
	// holds, so under MaxCalls and SolverLimit a reused context can make
	// the answer depend on which checks ran before in the process.
	Fresh bool
	// MaxCalls ends the check as inconclusive after this many solver calls
	// (0: no bound); with SolverLimit it bounds the whole check's solving.
	MaxCalls int
}

// Name returns "bmc".
func (*Engine) Name() string { return "bmc" }

// bound returns the unrolling bound.
func (e *Engine) bound() int {
	switch {
	case e.Unroll == 0:
		return DefaultUnroll
	case e.Unroll < 0:
		return 0
	}
	return e.Unroll
}

// BoundText is the Result.Bound of a Safe answer for a program with loops
// unrolled to k backward jumps per process.
func BoundText(k int) string {
	return fmt.Sprintf("executions of at most %d loop iterations per process", k)
}

// Stats describes one check in the terms of Fig. 11 of the paper.
type Stats struct {
	// Reads and Writes count the global accesses of the unrolled program
	// (initial writes and final reads included); AvgLinkSet is the mean
	// size of the reads' default link sets cW(r).
	Reads, Writes int
	AvgLinkSet    float64
	// LinkSets (Σ|W(r)| over R), Lambda (|Λ|) and Sigma (|Σ|) are the
	// size of the interference abstraction when the check ended, in the
	// form A / B / C of Fig. 11; FullLinkSets, FullLambda and FullSigma
	// are those of the full instantiation.
	LinkSets, Lambda, Sigma             int
	FullLinkSets, FullLambda, FullSigma int
	// Lemmas counts the lock lemmas (§7.1 S2b) of the encoding.
	Lemmas int
	// Iterations of REF, and solver calls.
	Iterations, SolverCalls int
	// Work is what counts against MaxWork.
	Work int64
}

// Report is the answer of [Engine.Analyze]: the engine result and the
// statistics of the check in the terms of the paper.
type Report struct {
	*engines.Result
	IA Stats
}

// Check decides whether a bad state of p (or a fault) is reachable under m
// by an execution in which every process takes at most the engine's number
// of backward jumps. Unsafe comes with a trace that package model has
// replayed; Safe, for a program with loops, carries the bound in
// Result.Bound; Inconclusive says which budget ran out (a context deadline,
// MaxWork) or that Z3 is unavailable.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	r, err := e.Analyze(ctx, p, m)
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// Analyze is Check with the statistics of the check.
func (e *Engine) Analyze(ctx context.Context, p *model.Program, m model.Model) (*Report, error) {
	start := time.Now()
	p, err := engines.ForTSO("the bounded engine", p, m)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	k := e.bound()
	res := &engines.Result{Model: m}
	rep := &Report{Result: res}
	finish := func() (*Report, error) {
		res.Stats.Duration = time.Since(start)
		res.Stats.States = rep.IA.Work
		if res.Status == engines.Unsafe {
			if err := engines.Verify(p, res); err != nil {
				return nil, err
			}
		}
		return rep, nil
	}
	if why := engines.NoFloats("the bmc engine", p); why != "" {
		res.Status, res.Reason = engines.Inconclusive, why
		return finish()
	}
	u, err := unroll(p, k)
	if err != nil {
		return nil, err
	}
	var z *smt.Context
	if e.Fresh {
		z, err = smt.NewContext(smt.Config{})
	} else {
		z, err = contexts.get()
	}
	if err != nil {
		res.Status = engines.Inconclusive
		res.Reason = "the bmc engine is unavailable: " + err.Error()
		return finish()
	}
	stop := context.AfterFunc(ctx, z.Interrupt)
	defer func() {
		// A context that an interrupt may still reach is not reused.
		contexts.put(z, stop())
	}()
	// fail reports an error, or the time budget when the deadline's
	// interrupt is what made Z3 fail (it may reach any call, not only a
	// check).
	fail := func(err error) (*Report, error) {
		if ctx.Err() != nil {
			res.Status = engines.Inconclusive
			res.Reason = "time budget exhausted"
			return finish()
		}
		return nil, fmt.Errorf("bmc: %w", err)
	}
	maxWork := e.MaxWork
	if maxWork <= 0 {
		maxWork = DefaultMaxWork
	}
	en, err := encode(newFB(z), p, u, m, !e.NoLemmas, false, maxWork/pairsPerWork)
	var big tooLarge
	if errors.As(err, &big) {
		res.Status = engines.Inconclusive
		res.Reason = big.Error()
		return finish()
	}
	if err != nil {
		return fail(err)
	}
	sol, err := z.NewSolver()
	if err != nil {
		return fail(err)
	}
	defer sol.Close()
	// The encoding's arithmetic is mostly differences of event times,
	// which Z3's older simplex decides faster than its default one: REF
	// 15-20% faster on the Fig. 11 systems, full instantiation unchanged.
	if err := sol.SetArithSolver(arithSolver); err != nil {
		return fail(err)
	}
	if e.SolverLimit > 0 && e.Full {
		if err := sol.SetResourceLimit(e.SolverLimit); err != nil {
			return fail(err)
		}
	}
	var groups []*group
	if !e.Full {
		groups = en.groups()
	}
	if err := sol.Assert(en.base...); err != nil {
		return fail(err)
	}
	st := &rep.IA
	st.Reads, st.Writes = len(en.rd), len(en.wr)
	st.Lemmas = en.lemmas
	st.FullLinkSets, st.FullLambda, st.FullSigma = en.fullSize()
	if st.Reads > 0 {
		st.AvgLinkSet = float64(st.FullLinkSets) / float64(st.Reads)
	}
	s := newIA(en, sol)
	s.bias = e.Bias
	s.rows = !e.Triples
	s.maxCalls = e.MaxCalls
	s.sync = syncVars(p)
	var (
		out    outcome
		t      *model.Trace
		reason string
	)
	if e.Full {
		s.full(ctx)
		out, t, reason, err = s.ref(ctx, maxWork)
	} else {
		// Static focusing: each group of goals from the reads that can
		// matter to it, the cheap ones with every instance (§7.1 S3), the
		// others when a model needs them.
		s.syncReads = e.SyncReads
		out, t, reason, err = s.decide(ctx, groups, maxWork, e.SolverLimit)
	}
	st.LinkSets, st.Lambda, st.Sigma = s.a, s.b, s.c
	st.Iterations, st.SolverCalls, st.Work = s.iters, s.calls, s.work
	if err != nil {
		return fail(err)
	}
	switch out {
	case budget:
		res.Status = engines.Inconclusive
		res.Reason = reason
		if u.Loops {
			res.Reason += fmt.Sprintf(" (unrolling bound %d)", k)
		}
	case proof:
		res.Status = engines.Safe
		if u.Cut {
			res.Bound = BoundText(k)
		}
	case found:
		res.Status = engines.Unsafe
		res.Trace = t
	}
	return finish()
}

// syncVars marks the variables that some locked operation or atomic load of
// p accesses.
func syncVars(p *model.Program) []bool {
	sync := make([]bool, len(p.Vars))
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			switch t.Op.Kind {
			case model.Read:
				if t.Op.Atomic {
					sync[t.Op.Var] = true
				}
			case model.Locked:
				for _, b := range t.Op.Body {
					if b.Kind == model.Read || b.Kind == model.Write {
						sync[b.Var] = true
					}
					model.WalkExpr(b.Expr, func(e model.Expr) {
						if v, ok := e.(model.VarRef); ok {
							sync[v.Var] = true
						}
					})
				}
			}
		}
	}
	return sync
}

var _ engines.Engine = (*Engine)(nil)

// arithSolver is the Z3 arithmetic solver of the engine's checks (see
// smt.Solver.SetArithSolver).
const arithSolver = 2

// contexts keeps Z3 contexts for reuse: deleting a context costs more than
// a small check.
var contexts pool

type pool struct {
	mu   sync.Mutex
	free []*smt.Context
}

func (p *pool) get() (*smt.Context, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		z := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return z, nil
	}
	p.mu.Unlock()
	return smt.NewContext(smt.Config{})
}

// put returns z to the pool if reuse is set, else closes it.
func (p *pool) put(z *smt.Context, reuse bool) {
	p.mu.Lock()
	if reuse && len(p.free) < 2*runtime.GOMAXPROCS(0) {
		p.free = append(p.free, z)
		z = nil
	}
	p.mu.Unlock()
	if z != nil {
		z.Close()
	}
}
