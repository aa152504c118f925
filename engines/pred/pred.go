package pred

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// DefaultMaxIterations is the refinement budget when Engine.MaxIterations is 0.
const DefaultMaxIterations = 200

// DefaultMaxStates is the budget of abstract configurations per run of the
// reachability search when Engine.MaxStates is 0.
const DefaultMaxStates = 2_000_000

// Engine is the predicate-abstraction engine. The zero value is ready to
// use: newest-1 abstraction at the start, default budgets.
type Engine struct {
	// K is the number of stores kept in order per buffer at the start; 0
	// means 1. Refinement raises it as counterexamples require.
	K int
	// Oldest keeps the oldest K stores in order (§4 of the paper) instead of
	// the newest K (the paper's implementation, §9).
	Oldest bool
	// MaxIterations ends the refinement loop as inconclusive; 0 means
	// DefaultMaxIterations.
	MaxIterations int
	// MaxStates bounds each reachability search; 0 means DefaultMaxStates.
	MaxStates int64
	// Observe, if not nil, is called with the report of every analysis
	// that Check runs (for statistics: fence inference calls Check many
	// times). It may be called from several goroutines at once.
	Observe func(*Report)
	// Fresh disables the reuse of predicates and k between analyses of
	// programs with the same variables and registers.
	Fresh bool
	// NoCompression turns off local-step compression: the search then
	// also keeps the configurations in which a process is between two of
	// its register-only steps (see the package documentation).
	NoCompression bool
	// NoFamilies turns off the renaming of predicates across processes
	// that run the same code on different indices (see the package
	// documentation).
	NoFamilies bool
	// Zones, when set, is the zone abstraction (engines/zone, which the
	// registry gives the engine) that tries to prove the program safe
	// before the refinement loop (see zoneProof); nil leaves it out.
	Zones engines.Engine

	mu      sync.Mutex
	learned map[string]*learned
	// idle holds, per program signature, term tables with their oracles
	// that no analysis is using: the analyses of one fence inference ask
	// largely the same questions, so the answers are kept across them.
	idle map[string][]*solverState
}

// solverState is a term table with the oracle whose answers are over it.
type solverState struct {
	t  *terms
	or *oracle
}

// maxIdle bounds the idle solver states kept per signature.
const maxIdle = 4

// acquire returns a solver state for programs of signature sig: an idle one
// unless Fresh is set, else a new one.
func (e *Engine) acquire(sig string) (*solverState, error) {
	if !e.Fresh {
		e.mu.Lock()
		if l := e.idle[sig]; len(l) > 0 {
			st := l[len(l)-1]
			e.idle[sig] = l[:len(l)-1]
			e.mu.Unlock()
			return st, nil
		}
		e.mu.Unlock()
	}
	t := newTerms()
	or, err := newOracle(t)
	if err != nil {
		return nil, err
	}
	return &solverState{t: t, or: or}, nil
}

// release hands st back for reuse, or closes it.
func (e *Engine) release(sig string, st *solverState) {
	if !e.Fresh && st.or.healthy() {
		e.mu.Lock()
		if e.idle == nil {
			e.idle = make(map[string][]*solverState)
		}
		if len(e.idle[sig]) < maxIdle {
			e.idle[sig] = append(e.idle[sig], st)
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()
	}
	st.or.close()
}

// Name returns "pred".
func (*Engine) Name() string { return "pred" }

// Report is the outcome of [Engine.Analyze]: the engine's result and what
// the refinement loop ended with.
type Report struct {
	Result *engines.Result
	// K is the final number of stores kept in order per buffer (0 under SC).
	K int
	// Predicates are the parameterized predicates in readable form.
	Predicates []string
	// Iterations is the number of reachability searches run.
	Iterations int
	// Queries counts the satisfiability questions, SolverCalls those that
	// reached Z3 (the others were answered from the cache).
	Queries, SolverCalls int64
}

// Check decides whether a bad state of p is reachable under m.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	r, err := e.Analyze(ctx, p, m)
	if err != nil {
		return nil, err
	}
	if e.Observe != nil {
		e.Observe(r)
	}
	return r.Result, nil
}

// maxBound is the largest magnitude of a domain bound the engine takes:
// its linear terms compute with int64 constants, and a bound nearer to
// ±2^63 overflows them when a term adds to it (x+1 ≤ hi).
const maxBound = 1 << 62

// extremeDomain names a variable or register whose domain has a bound
// beyond ±maxBound, or returns "".
func extremeDomain(p *model.Program) string {
	extreme := func(d model.Domain) bool {
		return !d.Unbounded && (d.Lo < -maxBound || d.Hi > maxBound)
	}
	name := ""
	for _, v := range p.Vars {
		if extreme(v.Dom) {
			name = v.Name
			break
		}
	}
	for _, q := range p.Procs {
		for _, r := range q.Regs {
			if name == "" && extreme(r.Dom) {
				name = "a value of " + q.Name
			}
		}
	}
	if name == "" {
		return ""
	}
	return fmt.Sprintf("unsupported in a fencecheck system: the predicate engine takes domains within ±2^62, and %s has a bound beyond (a //fencecheck:range near the limits of int64?); bound it with a narrower //fencecheck:range LO..HI", name)
}

// run is the state of one analysis.
type run struct {
	s   *system
	ps  *predSet
	or  *oracle
	sim *simulator
}

// Analyze runs the CEGAR loop of §7 of the paper on p under m and reports
// the verdict with the final abstraction.
//
// A program with counters that wrap (see lazy.go) is analysed in two
// equivalent forms at once, the values reduced at every update or only where
// the program looks at them; the first conclusive answer is the answer. Each
// form suits other invariants: a sequence count that stays small, a ticket
// that grows without bound.
func (e *Engine) Analyze(ctx context.Context, p *model.Program, m model.Model) (*Report, error) {
	p, err := engines.ForTSO("the predicate engine", p, m)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("pred engine: invalid program: %w", err)
	}
	p.Index()
	if why := engines.NoFloats("the predicate engine", p); why != "" {
		return &Report{Result: &engines.Result{Model: m, Status: engines.Inconclusive, Reason: why}}, nil
	}
	if why := extremeDomain(p); why != "" {
		return &Report{Result: &engines.Result{Model: m, Status: engines.Inconclusive, Reason: why}}, nil
	}
	if rep := e.zoneProof(ctx, p, m); rep != nil {
		return rep, nil
	}
	sig := signature(p)
	lazyP, isLazy := lazyWraps(p)
	if !isLazy {
		return e.analyze(ctx, p, reduceWraps(p), false, m, sig)
	}
	if meter := engines.MeterOf(ctx); meter != nil {
		return e.analyzeBoth(ctx, meter, p, lazyP, m, sig)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		rep *Report
		err error
	}
	answers := make(chan answer, 2)
	go func() {
		rep, err := e.analyze(ctx, p, reduceWraps(p), false, m, sig)
		answers <- answer{rep, err}
	}()
	go func() {
		rep, err := e.analyze(ctx, p, reduceWraps(lazyP), true, m, sig+"\x00lazy")
		answers <- answer{rep, err}
	}()
	first := <-answers
	if first.err == nil && first.rep.Result.Status != engines.Inconclusive {
		cancel()
		<-answers
		return first.rep, nil
	}
	second := <-answers
	if second.err == nil && (second.rep.Result.Status != engines.Inconclusive || first.err != nil) {
		return second.rep, nil
	}
	return first.rep, first.err
}

// ZoneWork is the work (control states expanded) the zone abstraction may
// spend before the refinement loop starts: Lamport's bakery with three
// goroutines and unbounded tickets, as Go code writes it, needs 12,665
// (1.3 million before the abstraction took local steps in a row).
const ZoneWork = 2_000_000

// zoneProof tries to prove p safe with the zone abstraction e.Zones before
// the refinement loop: under SC, or under TSO when no read can find a
// store in its buffer, and when no 64-bit value can wrap around within
// MinWrapFreeOps operations (zones compute with mathematical integers).
// It returns the safe answer, or nil to go on; the work it spent is
// charged to the meter of ctx either way, within ZoneWork.
func (e *Engine) zoneProof(ctx context.Context, p *model.Program, m model.Model) *Report {
	if e.Zones == nil || (m == model.TSO && !facts.LoadsDrained(p)) || wrapFree(p).ops < MinWrapFreeOps {
		return nil
	}
	start := time.Now()
	meter := engines.MeterOf(ctx)
	zm := meter.Sub(ZoneWork)
	res, err := e.Zones.Check(engines.WithMeter(ctx, zm), p, m)
	meter.Join(zm)
	if err != nil || res.Status != engines.Safe {
		return nil
	}
	res.Model = m
	res.Stats.Duration = time.Since(start)
	return &Report{Result: res}
}

// analyzeBoth analyses the eager and the lazy form of p at once, as Analyze
// does, but reproducibly under the work meter of ctx: each form counts its
// work on a fork of meter, and once one form has a conclusive answer the
// other goes on only while it has done less work. The answer is the one
// that took less work (the eager form's on a tie), whichever finished first
// in time; meter is charged with the winner's work, and with the other
// form's when it ended on its own with no more work.
func (e *Engine) analyzeBoth(ctx context.Context, meter *engines.Meter, p, lazyP *model.Program, m model.Model, sig string) (*Report, error) {
	type answer struct {
		rep    *Report
		err    error
		meter  *engines.Meter
		finals []func(keep bool)
	}
	forms := [2]answer{{meter: meter.Fork()}, {meter: meter.Fork()}}
	conclusive := func(a answer) bool {
		return a.err == nil && a.rep.Result.Status != engines.Inconclusive
	}
	done := make(chan int, 2)
	run := func(i int, ep *model.Program, lazy bool, sig string) {
		a := &forms[i]
		a.rep, a.err = e.analyze(withHold(engines.WithMeter(ctx, a.meter), &a.finals), p, ep, lazy, m, sig)
		done <- i
	}
	go run(0, reduceWraps(p), false, sig)
	go run(1, reduceWraps(lazyP), true, sig+"\x00lazy")
	first := <-done
	other := 1 - first
	if conclusive(forms[first]) {
		used, _, _ := forms[first].meter.Used()
		forms[other].meter.Cap(used)
	}
	<-done
	a, b := forms[0], forms[1]
	finish := func(f answer, keep bool) {
		if keep {
			meter.Join(f.meter)
		}
		for i := len(f.finals) - 1; i >= 0; i-- {
			f.finals[i](keep && !f.meter.Out())
		}
	}
	if !conclusive(a) && !conclusive(b) {
		// Neither capped the other: both ended on their own.
		finish(a, true)
		finish(b, true)
		if a.err != nil && b.err == nil {
			return b.rep, nil
		}
		return a.rep, a.err
	}
	ua, _, _ := a.meter.Used()
	ub, _, _ := b.meter.Used()
	win, lose := a, b
	if !conclusive(a) || (conclusive(b) && ub < ua) {
		win, lose = b, a
	}
	// The loser's work and what it learned are the same on every machine
	// only when it ended before doing more than the winner, whose answer
	// would have capped it.
	uw, _, _ := win.meter.Used()
	ul, _, _ := lose.meter.Used()
	finish(win, true)
	finish(lose, ul <= uw && !lose.meter.Out())
	return win.rep, nil
}

type holdKey struct{}

// wrappedKey marks the context of the analysis of a program whose values
// that may wrap are computed as Go does (see analyze).
type wrappedKey struct{}

// wrapIterations bounds the refinement of the wrapped form of a program:
// its predicates over wrapped sums can grow without end where the
// unwrapped ones settle (int64(int64(x + 1) + 1) is not x + 2).
const wrapIterations = 8

// withHold returns a context under which analyze leaves its final steps
// (keeping or dropping what it learned) in *h for its caller to run.
func withHold(ctx context.Context, h *[]func(keep bool)) context.Context {
	return context.WithValue(ctx, holdKey{}, h)
}

// holdOf returns the slice of withHold, or nil.
func holdOf(ctx context.Context) *[]func(keep bool) {
	h, _ := ctx.Value(holdKey{}).(*[]func(keep bool))
	return h
}

// analyze runs the CEGAR loop on ep, a program equivalent to p (lazy: with
// the values of lazy counters unreduced, whose traces are retraced on p),
// with the predicates learned for programs of signature sig.
func (e *Engine) analyze(ctx context.Context, p, ep *model.Program, lazy bool, m model.Model, sig string) (out *Report, outErr error) {
	start := time.Now()
	ss, err := e.acquire(sig)
	if errors.Is(err, smt.ErrUnavailable) {
		return unavailableReport(m, start, err), nil
	}
	if err != nil {
		return nil, fmt.Errorf("pred engine: %w", err)
	}
	// A solver check can take longer than any budget: when ctx ends, the
	// check running in this solver is interrupted, and the analysis is
	// inconclusive, whichever step was asking.
	var interrupted atomic.Bool
	ss.or.interrupted = &interrupted
	// detach stops the interruption for good and says whether it never
	// ran: only then may the solver serve another analysis.
	detach := sync.OnceValue(context.AfterFunc(ctx, func() {
		interrupted.Store(true)
		ss.or.ctx.Interrupt()
	}))
	defer func() {
		detach()
		// After an interruption Z3 may fail the next operation too (a
		// push is "canceled"): any error then is the interruption's.
		switch {
		case outErr != nil && interrupted.Load():
			out = &Report{Result: &engines.Result{Model: m, Status: engines.Inconclusive,
				Reason: "time budget exhausted (a solver check was interrupted)",
				Stats:  engines.Stats{Duration: time.Since(start)}}}
			outErr = nil
		case errors.Is(outErr, errCheckLimit), errors.Is(outErr, errUnknown):
			out = &Report{Result: &engines.Result{Model: m, Status: engines.Inconclusive,
				Reason: errors.Unwrap(outErr).Error(),
				Stats:  engines.Stats{Duration: time.Since(start)}}}
			outErr = nil
		}
	}()
	meter := engines.MeterOf(ctx)
	ss.or.meter = meter
	// What the analysis learned (its predicates, its solver's answers) is
	// kept for the next ones unless it stopped at its work bound; under
	// analyzeBoth, that form's caller decides, once it knows whether the
	// other form's answer cut this one at a point chosen by the clock.
	var finals []func(keep bool)
	defer func() {
		if h := holdOf(ctx); h != nil {
			*h = finals
			return
		}
		keep := !meter.Out()
		for i := len(finals) - 1; i >= 0; i-- {
			finals[i](keep)
		}
	}()
	finals = append(finals, func(keep bool) {
		ss.or.meter = nil
		ss.or.interrupted = nil
		if !detach() || !keep {
			ss.or.close()
			return
		}
		e.release(sig, ss)
	})
	t, or := ss.t, ss.or
	// A proof with unbounded integers holds for Go's int64 values only in
	// the runs that wrap nothing (wrapfree.go); a counterexample with a
	// wrapped value does not replay. When that bound is too short, the
	// answer is sought again with the values that may wrap computed as Go
	// does (wrap64.go), within wrapIterations.
	wrap := wrapFree(ep)
	wrapped := ctx.Value(wrappedKey{}) != nil
	s, err := newSystem(ep, t, m)
	if errors.Is(err, errNotEncoded) {
		return notEncodedReport(m, start, err), nil
	}
	if err != nil {
		return nil, fmt.Errorf("pred engine: %w", err)
	}
	r := &run{s: s, ps: newPredSet(s, !e.NoFamilies), or: or, sim: &simulator{s: s, or: or}}
	if err := r.seed(); err != nil {
		return nil, fmt.Errorf("pred engine: %w", err)
	}
	k := e.K
	if k <= 0 {
		k = 1
	}
	if !e.Fresh {
		e.mu.Lock()
		if l := e.learned[sig]; l != nil {
			for _, enc := range l.templates {
				x, err := t.decode(enc)
				if err != nil {
					e.mu.Unlock()
					return nil, fmt.Errorf("pred engine: internal error: %w", err)
				}
				r.ps.add(x)
			}
			k = max(k, l.k)
		}
		e.mu.Unlock()
		finals = append(finals, func(keep bool) {
			if !keep {
				return
			}
			var encs []string
			for _, x := range r.ps.base {
				var b strings.Builder
				t.encode(&b, x)
				encs = append(encs, b.String())
			}
			e.mu.Lock()
			defer e.mu.Unlock()
			if e.learned == nil {
				e.learned = make(map[string]*learned)
			}
			if l := e.learned[sig]; l == nil || len(l.templates) < len(encs) {
				e.learned[sig] = &learned{templates: encs, k: max(k, e.learnedK(sig))}
			}
		})
	}
	if m == model.SC {
		k = 0
	}
	maxIter := e.MaxIterations
	if maxIter <= 0 {
		maxIter = DefaultMaxIterations
	}
	if wrapped {
		maxIter = min(maxIter, wrapIterations)
	}
	maxStates := e.MaxStates
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	rep := &Report{Result: &engines.Result{Model: m}}
	queries0, calls0 := or.queries, or.calls
	finish := func(status engines.Status, reason string) (*Report, error) {
		res := rep.Result
		res.Status, res.Reason = status, reason
		res.Stats.Duration = time.Since(start)
		rep.K = k
		rep.Predicates = r.ps.strings()
		rep.Queries, rep.SolverCalls = or.queries-queries0, or.calls-calls0
		if lazy && res.Trace != nil {
			t, err := retrace(p, res.Trace)
			if err != nil {
				return nil, fmt.Errorf("pred engine: %w", err)
			}
			res.Trace = t
		}
		if err := engines.Verify(p, res); err != nil {
			return nil, fmt.Errorf("pred engine: %w", err)
		}
		return rep, nil
	}
	where := func() string {
		if m == model.SC {
			return fmt.Sprintf("%d predicates", r.ps.len())
		}
		return fmt.Sprintf("k = %d, %d predicates", k, r.ps.len())
	}
	// wrapInconclusive is the answer when wrap-around stops a proof or a
	// counterexample: the wrapped form's, when it has a conclusive one.
	wrapInconclusive := func() (*Report, error) {
		if !wrapped && !lazy && wrap.ops < MinWrapFreeOps {
			if wp, w := wrapExact(ep); wp != ep && w.ops >= MinWrapFreeOps {
				wctx := context.WithValue(withHold(ctx, nil), wrappedKey{}, true)
				r, err := e.analyze(wctx, p, wp, false, m, sig+"\x00wrap64")
				if err == nil && r.Result.Status != engines.Inconclusive {
					return r, nil
				}
			}
		}
		return finish(engines.Inconclusive, wrap.replayReason(wrapped))
	}
	seen := make(map[string]bool)
	for {
		if meter.Out() {
			return finish(engines.Inconclusive, meter.Reason())
		}
		if rep.Iterations >= maxIter {
			return finish(engines.Inconclusive, fmt.Sprintf("refinement budget of %d iterations exhausted (%s)", maxIter, where()))
		}
		rep.Iterations++
		md := mode{sc: m == model.SC, k: k, oldest: e.Oldest}
		abs := newAbstraction(s, r.ps, md, or)
		abs.compress = !e.NoCompression
		rr, err := abs.reach(ctx, maxStates)
		if rr != nil {
			rep.Result.Stats.States += rr.states
		}
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return finish(engines.Inconclusive, fmt.Sprintf("time budget exhausted after %d iterations (%s)", rep.Iterations, where()))
		case errors.Is(err, engines.ErrWork):
			return finish(engines.Inconclusive, meter.Reason())
		case errors.Is(err, errBudget):
			return finish(engines.Inconclusive, fmt.Sprintf("state budget of %d abstract configurations exhausted (%s)", maxStates, where()))
		case err != nil:
			return nil, fmt.Errorf("pred engine: %w", err)
		}
		if rr.trace == nil {
			if wrap.ops < MinWrapFreeOps {
				return wrapInconclusive()
			}
			return finish(engines.Safe, "")
		}
		tr := rr.trace
		key := fmt.Sprint(md, tr.events, tr.bad)
		if seen[key] {
			return finish(engines.Inconclusive, fmt.Sprintf("refinement made no progress on a spurious counterexample of %d steps (%s)", len(tr.events), where()))
		}
		seen[key] = true
		// (1) Feasible under SC: a bug of the program itself. Under TSO it is
		// returned as a TSO trace in which every store lands at once.
		sc, err := r.sim.run(mode{sc: true}, tr.events, tr.bad, false)
		if err != nil && !errors.Is(err, errTooManyChoices) {
			return nil, fmt.Errorf("pred engine: %w", err)
		}
		if sc != nil {
			t, err := r.sim.trace(sc, m, m == model.TSO)
			if err != nil && (wrap.ops < MinWrapFreeOps || wrapped) {
				return wrapInconclusive()
			}
			if err != nil {
				return nil, fmt.Errorf("pred engine: %w", err)
			}
			rep.Result.Trace = t
			return finish(engines.Unsafe, "")
		}
		if m == model.TSO {
			// (2) Feasible under TSO: a concrete counterexample.
			tso, err := r.sim.run(mode{k: -1}, tr.events, tr.bad, false)
			if err != nil && !errors.Is(err, errTooManyChoices) {
				return nil, fmt.Errorf("pred engine: %w", err)
			}
			if tso != nil {
				t, err := r.sim.trace(tso, model.TSO, false)
				if err != nil && (wrap.ops < MinWrapFreeOps || wrapped) {
					return wrapInconclusive()
				}
				if err != nil {
					return nil, fmt.Errorf("pred engine: %w", err)
				}
				rep.Result.Trace = t
				return finish(engines.Unsafe, "")
			}
			// (3) Feasible under the k-abstraction with exact data: raise k to
			// the least value that removes the trace.
			kab, err := r.sim.run(md, tr.events, tr.bad, true)
			if err != nil && !errors.Is(err, errTooManyChoices) {
				return nil, fmt.Errorf("pred engine: %w", err)
			}
			if kab != nil {
				nk, err := r.leastK(md, tr)
				if err != nil {
					return nil, fmt.Errorf("pred engine: %w", err)
				}
				k = nk
				continue
			}
		}
		// (4) Spurious for the data abstraction: new predicates.
		if _, err := r.refine(md, tr); err != nil {
			return nil, fmt.Errorf("pred engine: %w", err)
		}
	}
}

func (e *Engine) learnedK(sig string) int {
	if l := e.learned[sig]; l != nil {
		return l.k
	}
	return 0
}

// leastK returns the least k' > md.k under which tr's steps are infeasible.
func (r *run) leastK(md mode, tr *abstractTrace) (int, error) {
	writes := 0
	for _, ev := range tr.events {
		if ev.trans >= 0 && r.s.p.Procs[ev.proc].Trans[ev.trans].Op.Kind == model.Write {
			writes++
		}
	}
	for k := md.k + 1; k <= writes; k++ {
		res, err := r.sim.run(mode{k: k, oldest: md.oldest}, tr.events, tr.bad, false)
		if err != nil && !errors.Is(err, errTooManyChoices) {
			return 0, err
		}
		if res == nil && err == nil {
			return k, nil
		}
	}
	return max(writes, md.k+1), nil
}
