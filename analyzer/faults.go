package analyzer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// A fault is a step whose value leaves the domain of a variable or register
// of the model. What it means depends on where the domain comes from:
//
//   - a //fencecheck:range of the user: the program breaks the user's claim,
//     a finding of its own (range:);
//   - the counter of a sync.WaitGroup below zero: Go panics, a bad state;
//   - fencecheck's own inference: a gap in the tool's abstraction, never a
//     verdict about the program. The analysis widens the domain (to the range
//     of the Go type, which hands an unbounded system to the predicate
//     engine) and starts again, or says it is inconclusive, naming the
//     variable as the user spells it.
//
// Go's arithmetic itself never faults: the lowering wraps it as Go does, and
// a division by zero or a negative shift count is a panic of the program.

// faultKind classifies a fault.
type faultKind uint8

const (
	faultOther     faultKind = iota // no domain: an expression that cannot be evaluated
	faultRange                      // outside a //fencecheck:range
	faultWaitGroup                  // a wait-group counter below zero
	faultInferred                   // outside a domain fencecheck inferred
)

// maxWidenings bounds how often one system's analysis starts again with a
// wider domain.
const maxWidenings = 8

// entity returns the description of the variable or register whose domain
// fault f left, if f names one of the system's model.
func (s *system) entity(f *model.Fault) (extract.Entity, bool) {
	switch {
	case f.Var >= 0 && f.Var < len(s.sys.Vars):
		return s.sys.Vars[f.Var], true
	case f.Reg >= 0 && f.Proc < len(s.sys.Regs) && f.Reg < len(s.sys.Regs[f.Proc]):
		return s.sys.Regs[f.Proc][f.Reg], true
	}
	return extract.Entity{}, false
}

// domain returns the domain that fault f left.
func (s *system) domain(f *model.Fault) model.Domain {
	if f.Var >= 0 {
		return s.p.Vars[f.Var].Dom
	}
	return s.p.Procs[f.Proc].Regs[f.Reg].Dom
}

// kind classifies fault f.
func (s *system) kind(f *model.Fault) faultKind {
	e, ok := s.entity(f)
	switch {
	case !ok:
		return faultOther
	case e.WaitGroup && f.Value < 0:
		return faultWaitGroup
	case e.Ranged:
		return faultRange
	}
	return faultInferred
}

// faultText describes fault f at pos for the user: a sentence fragment, and
// the same for the related information at pos.
func (s *system) faultText(f *model.Fault, pos string) (text, here string) {
	e, _ := s.entity(f)
	switch s.kind(f) {
	case faultRange:
		d := s.domain(f)
		return fmt.Sprintf("%s takes the value %s at %s, outside its //fencecheck:range %s..%s", sourceName(e.Name), e.Value(f.Value), pos, e.Value(d.Lo), e.Value(d.Hi)),
			fmt.Sprintf("%s takes the value %s here, outside its //fencecheck:range %s..%s", sourceName(e.Name), e.Value(f.Value), e.Value(d.Lo), e.Value(d.Hi))
	case faultWaitGroup:
		return fmt.Sprintf("the counter of %s goes below zero at %s (Go panics: sync: negative WaitGroup counter)", sourceName(e.Name), pos),
			fmt.Sprintf("the counter of %s goes below zero here (Go panics: sync: negative WaitGroup counter)", sourceName(e.Name))
	case faultInferred:
		return fmt.Sprintf("%s takes the value %s at %s, outside the domain %v that fencecheck inferred for it", sourceName(e.Name), e.Value(f.Value), pos, s.domain(f)),
			fmt.Sprintf("%s takes the value %s here, outside the domain %v that fencecheck inferred for it", sourceName(e.Name), e.Value(f.Value), s.domain(f))
	}
	return fmt.Sprintf("the statement at %s goes wrong (%s)", pos, f.Msg), fmt.Sprintf("this statement goes wrong (%s)", f.Msg)
}

// varValue formats v, a value of shared variable x, as Go prints it (a
// uint64 as the unsigned number, not the model's bit pattern; whether a
// map's key is there as present or absent).
func (s *system) varValue(x int, v int64) string {
	if x >= 0 && x < len(s.p.Vars) && s.isPresence(x) && (v == 0 || v == 1) {
		return [2]string{"absent", "present"}[v]
	}
	if x >= 0 && x < len(s.sys.Vars) {
		return s.sys.Vars[x].Value(v)
	}
	return fmt.Sprint(v)
}

// finalFault returns the fault of the last state of trace t of s.p, or nil.
func (s *system) finalFault(t *model.Trace) *model.Fault {
	if t == nil {
		return nil
	}
	states, err := s.p.Replay(t)
	if err != nil || len(states) == 0 {
		return nil
	}
	return states[len(states)-1].Fault
}

// scPrefix returns the category of a system that is wrong under SC with
// trace t: "range" when t breaks a //fencecheck:range, else "SC".
func (s *system) scPrefix(t *model.Trace) string {
	if f := s.finalFault(t); f != nil && s.kind(f) == faultRange {
		return "range"
	}
	return "SC"
}

// An inferenceGap stops an analysis whose engine found a value outside a
// domain that fencecheck inferred: not a verdict about the program.
type inferenceGap struct {
	fault  model.Fault
	entity extract.Entity
}

func (g *inferenceGap) Error() string {
	return fmt.Sprintf("%s takes the value %s, outside the domain fencecheck inferred for it", sourceName(g.entity.Name), g.entity.Value(g.fault.Value))
}

// guarded is an engine that stops with an *inferenceGap when a counterexample
// of the engine it wraps ends in a value outside an inferred domain of the
// system's model. The programs the analysis asks about (with barriers, with
// race instrumentation) keep the variables and registers of the system's
// model at their indices.
type guarded struct {
	engines.Engine
	s *system
}

// guard wraps eng; see guarded.
func (s *system) guard(eng engines.Engine) engines.Engine {
	if eng == nil {
		return nil
	}
	return guarded{eng, s}
}

// Check checks p with the wrapped engine and stops at an inference gap,
// or at a counterexample that rests on guessed answers (guesses.go).
func (g guarded) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	r, err := g.checkFaults(ctx, p, m)
	if err != nil || r == nil || r.Status != engines.Unsafe || r.Trace == nil {
		return r, err
	}
	if asked, followed := g.s.guessesIn(p, r.Trace); len(asked) > 0 {
		r, err := g.confirm(ctx, p, m, r, asked, followed)
		if gi, ok := errors.AsType[*guessInconclusive](err); ok {
			return gi.r, nil
		}
		return r, err
	}
	return r, nil
}

// checkFaults checks p with the wrapped engine and stops at an inference
// gap.
func (g guarded) checkFaults(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	r, err := g.Engine.Check(ctx, p, m)
	if err != nil || r == nil || r.Status != engines.Unsafe || r.Trace == nil {
		return r, err
	}
	states, rerr := p.Replay(r.Trace)
	if rerr != nil || len(states) == 0 {
		return r, err
	}
	f := states[len(states)-1].Fault
	if f == nil || g.s.kind(f) != faultInferred {
		return r, err
	}
	e, _ := g.s.entity(f)
	return nil, &inferenceGap{fault: *f, entity: e}
}

// gapped records err when it is an inference gap and reports whether it is
// one: the analysis then stops without a report, and check starts it again.
func (s *system) gapped(err error) bool {
	var g *inferenceGap
	if errors.As(err, &g) {
		s.gap = g
		return true
	}
	var gg *guessGap
	if errors.As(err, &gg) {
		s.guessed = gg
		return true
	}
	return false
}

// check picks the engine, runs the analysis and reports its verdict. An
// analysis that meets a value outside an inferred domain is dropped with
// what it reported: the domain becomes the widest its Go type allows and the
// analysis starts again, or the answer is inconclusive, naming the variable.
func (s *system) check() {
	for attempt := 0; ; attempt++ {
		mark := s.r.mark()
		s.gap, s.guessed, s.racesKept = nil, nil, nil
		s.analyse()
		if gg := s.guessed; gg != nil {
			s.reportGuessGap(gg)
			return
		}
		g := s.gap
		if g == nil {
			return
		}
		if g.entity.Refusal && s.racesKept != nil {
			// The races found are runs that reach no refusal: they stand.
			s.r.rollback(*s.racesKept)
			s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
				"inconclusive: system %s: a run reaches %s, which fencecheck does not model, and the analysis stops there; the data races reported are in runs that do not reach it, and others may lie beyond it (this is a limit of fencecheck, not a finding about the program)",
				s.sys.Name, g.entity.Describe(s.r.pass.Fset)))
			return
		}
		s.r.rollback(mark)
		if g.entity.Refusal {
			s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
				"inconclusive: system %s: a run reaches %s, which fencecheck does not model, and the analysis stops there (this is a limit of fencecheck, not a finding about the program)",
				s.sys.Name, g.entity.Describe(s.r.pass.Fset)))
			return
		}
		if s.ctx.Err() != nil || attempt >= maxWidenings || !s.widen(&g.fault, g.entity) {
			msg := fmt.Sprintf(
				"inconclusive: system %s: %s takes the value %s, outside the domain %v that fencecheck inferred for it, and the analysis cannot widen it further (this is a limit of fencecheck, not a finding about the program)",
				s.sys.Name, g.entity.Describe(s.r.pass.Fset), g.entity.Value(g.fault.Value), s.domain(&g.fault))
			if gr := s.growth(); gr != "" {
				// The value outside is often one the growing cell made (an
				// interface value of a payload without a box).
				msg += "; " + gr
			}
			s.report(s.sys.Decl.Name.Pos(), msg)
			return
		}
	}
}

// widen gives the variable or register of fault f the widest domain its Go
// type allows, and reports whether that is wider than its domain.
func (s *system) widen(f *model.Fault, e extract.Entity) bool {
	var dom *model.Domain
	var vals *[]int64
	if f.Var < 0 {
		dom, vals = &s.p.Procs[f.Proc].Regs[f.Reg].Dom, &s.p.Procs[f.Proc].Regs[f.Reg].Values
	} else {
		dom, vals = &s.p.Vars[f.Var].Dom, &s.p.Vars[f.Var].Values
	}
	if *vals != nil && !slices.Contains(*vals, f.Value) {
		// A value beyond those the cell was proved to take: none are
		// known any more.
		*vals = nil
	}
	if !e.Limit.Contains(f.Value) || dom.Unbounded || (!e.Limit.Unbounded && dom.Lo <= e.Limit.Lo && e.Limit.Hi <= dom.Hi) {
		return false
	}
	cell := facts.Cell{Proc: -1, Index: f.Var}
	if f.Var < 0 {
		cell = facts.Cell{Proc: f.Proc, Index: f.Reg}
	}
	if s.discovered[cell] {
		// A value of x86-TSO beyond the values of SC: the domain grows
		// to the value and by its own width again on that side.
		if w := discoveredWidening(*dom, f.Value); !w.Unbounded {
			*dom = w
			return true
		}
	}
	*dom = e.Limit
	return true
}

// discoveredWidening returns d widened to v and by d's width beyond it
// again, or model.Unbounded when that leaves int64.
func discoveredWidening(d model.Domain, v int64) model.Domain {
	w := d.Size()
	if w > 1<<20 {
		return model.Unbounded
	}
	switch {
	case v > d.Hi && v < math.MaxInt64-w:
		return model.Range(d.Lo, v+w)
	case v < d.Lo && v > math.MinInt64+w:
		return model.Range(v-w, d.Hi)
	}
	return model.Unbounded
}

// A mark is the state of a reporter to go back to.
type mark struct {
	n    int
	seen map[string]bool
}

// mark returns the reporter's state.
func (r *reporter) mark() mark { return mark{len(r.diags), maps.Clone(r.seen)} }

// rollback drops the diagnostics added since m.
func (r *reporter) rollback(m mark) {
	r.diags = r.diags[:m.n:m.n]
	r.seen = m.seen
}
