package bmc

import (
	"context"
	"fmt"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// This file answers the second phase of race.Check (every pair of
// conflicting accesses that happens-before leaves unordered) on the
// program itself: happens-before is stated on the encoding's links, and one
// solver, one encoding and one interference abstraction serve every
// question.
//
// For a site c (accesses of process P to a variable), let b be the last
// access of c that runs. Process Q's point at location l is ordered after
// every access of c that ran iff b happens before it: K_c(Q, l). In P,
// K_c(P, l) holds iff no access of c runs after l. In another process,
// K_c(Q, l) holds iff the transition that led to l started from a point
// with K_c, or is an acquisition of a variable whose read links a write of
// a release (a locked operation) made at a point with K_c; the initial
// location has no knowledge. A question (Q at location l, about to access
// what conflicts with c) has an answer iff some execution ends with Q at a
// copy of l, some access of c run, and ¬K_c(Q, l). Where a read's link is
// not yet constrained (outside R), K may be wrong in a model; every model's
// trace is checked by replaying it with happens-before bits, and a wrong
// one refines the acquisitions' links.

// Enumerate answers the questions of the second phase of race.Check with
// the engine's unrolling bound: an answer is an SC execution in which
// every process takes at most the bound's backward jumps.
func (e *Engine) Enumerate(p *model.Program, qs []engines.RaceQuestion, holds func(int, *model.Trace) bool) (engines.RaceEnumeration, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	k := e.bound()
	u, err := unroll(p, k)
	if err != nil {
		return nil, err
	}
	h := &hbSearch{eng: e, p: p, u: u, k: k, qs: qs, holds: holds}
	if why := engines.NoFloats("the bmc engine", p); why != "" {
		h.unavailable = why
		return h, nil
	}
	z, err := contexts.get()
	if err != nil {
		h.unavailable = "the bmc engine is unavailable: " + err.Error()
		return h, nil
	}
	h.z = z
	en, err := encode(newFB(z), p, u, model.SC, !e.NoLemmas, true, 0)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("bmc: %w", err)
	}
	h.en = en
	h.know = map[int][][]*smt.Expr{}
	for i, q := range qs {
		if q.Proc < 0 || q.Proc >= len(p.Procs) || q.Site.Proc < 0 || q.Site.Proc >= len(p.Procs) || q.Site.Proc == q.Proc ||
			q.Loc < 0 || q.Loc >= len(p.Procs[q.Proc].Locs) || q.With >= len(p.Procs[q.Site.Proc].Locs) {
			h.Close()
			return nil, fmt.Errorf("race question %d: no such processes or locations", i)
		}
	}
	h.goals = make([]*smt.Expr, len(qs))
	sol, err := z.NewSolver()
	if err != nil {
		h.Close()
		return nil, err
	}
	h.sol = sol
	if e.SolverLimit > 0 {
		if err := sol.SetResourceLimit(e.SolverLimit); err != nil {
			h.Close()
			return nil, fmt.Errorf("bmc: %w", err)
		}
	}
	if err := sol.Assert(en.base...); err != nil {
		h.Close()
		return nil, fmt.Errorf("bmc: %w", err)
	}
	s := newIA(en, sol)
	s.bias = e.Bias
	s.rows = !e.Triples
	s.maxCalls = e.MaxCalls
	s.sync = syncVars(p)
	s.acq = make([]bool, len(en.rd))
	for k, ri := range en.rd {
		r := en.acc[ri]
		if r.proc >= 0 && slices.Contains(facts.Acquires(u.Prog.Procs[r.proc].Trans[r.trans].Op), r.x) {
			s.acq[k] = true
		}
	}
	h.ia = s
	return h, nil
}

// hbSearch is the Enumeration of [Engine.Enumerate].
type hbSearch struct {
	eng         *Engine
	p           *model.Program
	u           *Unrolled
	k           int
	qs          []engines.RaceQuestion
	holds       func(int, *model.Trace) bool
	unavailable string

	z   *smt.Context
	en  *encoding
	sol *smt.Solver
	ia  *ia
	// know[site] holds K_c by unrolled process and location, for the
	// site with that index in knowSites.
	know      map[int][][]*smt.Expr
	knowSites []engines.RaceSite
	goals     []*smt.Expr
	rounds    int
	closed    bool
	// interrupted is set once a context's interrupt may have reached the
	// Z3 context, which is then not reused.
	interrupted bool
}

// copies returns the transitions of process i of the unrolled program that
// copy the original transitions ts.
func (h *hbSearch) copies(i int, ts []int) []int {
	var out []int
	for t, orig := range h.u.Trans[i] {
		if slices.Contains(ts, orig) {
			out = append(out, t)
		}
	}
	return out
}

// knowledge returns K_c for site c by unrolled process and location.
func (h *hbSearch) knowledge(c engines.RaceSite) [][]*smt.Expr {
	for i, s := range h.knowSites {
		if s.Proc == c.Proc && s.Var == c.Var && slices.Equal(s.Trans, c.Trans) {
			return h.know[i]
		}
	}
	en := h.en
	id := len(h.knowSites)
	h.knowSites = append(h.knowSites, c)
	kn := make([][]*smt.Expr, len(en.procs))
	h.know[id] = kn
	// In the site's process: no access of c after l.
	pc := en.procs[c.Proc]
	inst := h.copies(c.Proc, c.Trans)
	kn[c.Proc] = make([]*smt.Expr, len(pc.q.Locs))
	for l := range pc.q.Locs {
		var later []*smt.Expr
		for _, t := range inst {
			if pc.reach[l].has(t) {
				later = append(later, pc.e[t])
			}
		}
		kn[c.Proc][l] = en.not(en.or(later...))
	}
	// Elsewhere: fresh literals defined in topological order, so that an
	// acquisition may refer to any process's knowledge.
	for i, pr := range en.procs {
		if i == c.Proc {
			continue
		}
		kn[i] = make([]*smt.Expr, len(pr.q.Locs))
		for l := range pr.q.Locs {
			if l == pr.q.Init {
				kn[i][l] = en.ff
			} else {
				kn[i][l] = en.z.Bool(fmt.Sprintf("k%d_%d_%d", id, i, l))
			}
		}
	}
	post := func(pr *proc, t int) *smt.Expr {
		return kn[pr.i][pr.q.Trans[t].To]
	}
	for i, pr := range en.procs {
		if i == c.Proc {
			continue
		}
		in := make([][]int, len(pr.q.Locs))
		for ti, t := range pr.q.Trans {
			in[t.To] = append(in[t.To], ti)
		}
		for l := range pr.q.Locs {
			if l == pr.q.Init {
				continue
			}
			var alts []*smt.Expr
			for _, ti := range in[l] {
				from := kn[i][pr.q.Trans[ti].From]
				var acq []*smt.Expr
				xs := facts.Acquires(pr.q.Trans[ti].Op)
				for _, id := range pr.acc[ti] {
					r := en.acc[id]
					if r.write || !slices.Contains(xs, r.x) {
						continue
					}
					for j, wi := range r.cand {
						w := en.acc[wi]
						if w.proc < 0 || !slices.Contains(facts.Releases(en.procs[w.proc].q.Trans[w.trans].Op), w.x) {
							continue // the initial value or a plain store: no knowledge
						}
						acq = append(acq, en.and(en.link(r, j), post(en.procs[w.proc], w.trans)))
					}
				}
				alts = append(alts, en.and(pr.e[ti], en.or(from, en.or(acq...))))
			}
			h.ia.add(en.z.Eq(kn[i][l], en.or(alts...)))
		}
	}
	return kn
}

// goal returns the literal of question i, made on first use: its process
// ends at a copy of its location and, for a question of the first phase
// (With ≥ 0), the site's process at a copy of With; for one of the second,
// some access of the site ran with no knowledge of it at that point.
func (h *hbSearch) goal(i int) *smt.Expr {
	if g := h.goals[i]; g != nil {
		return g
	}
	q := h.qs[i]
	en := h.en
	pr, pc := en.procs[q.Proc], en.procs[q.Site.Proc]
	var def *smt.Expr
	if q.With >= 0 {
		var at, with []*smt.Expr
		for _, l := range h.u.Copies[q.Proc][q.Loc] {
			at = append(at, pr.ends[l])
		}
		for _, l := range h.u.Copies[q.Site.Proc][q.With] {
			with = append(with, pc.ends[l])
		}
		def = en.and(en.or(at...), en.or(with...))
	} else {
		kn := h.knowledge(q.Site)
		var at, ran []*smt.Expr
		for _, l := range h.u.Copies[q.Proc][q.Loc] {
			at = append(at, en.and(pr.ends[l], en.not(kn[q.Proc][l])))
		}
		for _, t := range h.copies(q.Site.Proc, q.Site.Trans) {
			ran = append(ran, pc.e[t])
		}
		def = en.and(en.or(at...), en.or(ran...))
	}
	g := en.z.Bool(fmt.Sprintf("q%d", i))
	h.ia.add(en.implies(g, def))
	h.goals[i] = g
	return g
}

// Next finds an open question with an answer.
func (h *hbSearch) Next(ctx context.Context, open []int) (int, *model.Trace, *engines.Result, error) {
	res := &engines.Result{Model: model.SC}
	if h.unavailable != "" {
		res.Status, res.Reason = engines.Inconclusive, h.unavailable
		return -1, nil, res, nil
	}
	if h.closed {
		return -1, nil, nil, fmt.Errorf("bmc: Next on a closed enumeration")
	}
	stop := context.AfterFunc(ctx, h.z.Interrupt)
	defer func() {
		if !stop() {
			h.interrupted = true
		}
	}()
	en, s := h.en, h.ia
	var goals []*smt.Expr
	focus := make([]bool, len(en.rd))
	for _, i := range open {
		if i < 0 || i >= len(h.qs) {
			return -1, nil, nil, fmt.Errorf("bmc: no race question %d", i)
		}
		goals = append(goals, h.goal(i))
		q := h.qs[i]
		seeds := make([][]bool, len(en.procs))
		pr := en.procs[q.Proc]
		seeds[q.Proc] = make([]bool, len(pr.q.Trans))
		for _, l := range h.u.Copies[q.Proc][q.Loc] {
			for t, in := range pr.before(l) {
				seeds[q.Proc][t] = seeds[q.Proc][t] || in
			}
		}
		pc := en.procs[q.Site.Proc]
		seeds[q.Site.Proc] = make([]bool, len(pc.q.Trans))
		if q.With >= 0 {
			for _, l := range h.u.Copies[q.Site.Proc][q.With] {
				for t, in := range pc.before(l) {
					seeds[q.Site.Proc][t] = seeds[q.Site.Proc][t] || in
				}
			}
		}
		for _, t := range h.copies(q.Site.Proc, q.Site.Trans) {
			seeds[q.Site.Proc][t] = true
			for u, in := range pc.before(pc.q.Trans[t].From) {
				seeds[q.Site.Proc][u] = seeds[q.Site.Proc][u] || in
			}
		}
		for k, in := range en.closure(seeds, nil) {
			focus[k] = focus[k] || in
		}
	}
	// The open questions as one goal (an assumption of this round only).
	h.rounds++
	g := en.z.Bool(fmt.Sprintf("round%d", h.rounds))
	s.add(en.implies(g, en.or(goals...)))
	needHB := false
	for _, i := range open {
		needHB = needHB || h.qs[i].With < 0
	}
	for k, in := range focus {
		if (in || needHB && s.acq[k]) && !s.inR[k] && cheap(en.acc[en.rd[k]]) {
			s.full1(k)
		}
	}
	s.goal = g
	var hit int
	s.accept = func(m *smt.Model, t *model.Trace) (bool, error) {
		for _, i := range open {
			b, err := m.Bool(h.goals[i])
			if err != nil {
				return false, err
			}
			if b && h.holds(i, t) {
				hit = i
				return true, nil
			}
		}
		return false, nil
	}
	maxWork := h.eng.MaxWork
	if maxWork <= 0 {
		maxWork = DefaultMaxWork
	}
	out, t, reason, err := s.ref(ctx, maxWork)
	res.Stats.States = s.work
	if err != nil {
		if ctx.Err() != nil {
			res.Status, res.Reason = engines.Inconclusive, "time budget exhausted"
			return -1, nil, res, nil
		}
		return -1, nil, nil, fmt.Errorf("bmc: %w", err)
	}
	switch out {
	case found:
		return hit, t, nil, nil
	case proof:
		res.Status = engines.Safe
		if h.u.Cut {
			res.Bound = BoundText(h.k)
		}
	default:
		res.Status, res.Reason = engines.Inconclusive, reason
		if h.u.Loops {
			res.Reason += fmt.Sprintf(" (unrolling bound %d)", h.k)
		}
	}
	return -1, nil, res, nil
}

// Close releases the solver and the Z3 context.
func (h *hbSearch) Close() {
	if h.closed {
		return
	}
	h.closed = true
	if h.sol != nil {
		h.sol.Close()
	}
	if h.z != nil {
		contexts.put(h.z, !h.interrupted)
	}
}

// redHB refines the IA for a model whose execution reaches a question's
// state with the accesses ordered: the model's happens-before is wrong, so
// some acquisition reads from another write than its link says. The
// acquisitions outside R join it; for those in R, the instances their
// links violate are added. It reports whether it refined anything.
func (s *ia) redHB(v *values) bool {
	en := s.en
	refined := false
	for k, ri := range en.rd {
		if !s.acq[k] || !v.en[ri] {
			continue
		}
		if !s.inR[k] {
			if cheap(en.acc[ri]) {
				s.full1(k)
			} else {
				s.addRead(k, s.biased(k))
			}
			refined = true
			continue
		}
		j := v.sel[ri]
		if j < 0 {
			continue
		}
		if !s.lam[k][j] && !en.holds2(v, ri, j) {
			s.addLam(k, j)
			refined = true
		}
		r := en.acc[ri]
		for _, w2 := range r.interf {
			if !s.sig[k][[2]int{j, w2}] && !en.holds3(v, ri, j, w2) && en.pi3Shape(r, en.acc[r.cand[j]], en.acc[w2]) != skip {
				s.addSig(k, j, w2)
				refined = true
			}
		}
	}
	return refined
}
