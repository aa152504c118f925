package race

import (
	"context"
	"fmt"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// This file lets an engine answer the second phase of Check on the program
// itself, instead of on the program instrumented with happens-before bits:
// an engine with an encoding of executions (package bmc) states
// happens-before directly and keeps one solver across the questions. The
// questions and their enumeration are types of package engines
// (engines.RaceQuestion), so that such an engine needs nothing of this
// package.

// An Enumerator is an engine that answers the questions of the second
// phase of [Check] itself; Check then uses it instead of checking the
// instrumented program.
type Enumerator interface {
	engines.Engine
	// Enumerate starts answering questions qs about p. holds(i, t)
	// reports whether t, an SC trace of p, ends in a state that answers
	// question i (by replaying it with happens-before bits): the check an
	// engine makes of every candidate before it returns it.
	Enumerate(p *model.Program, qs []engines.RaceQuestion, holds func(i int, t *model.Trace) bool) (engines.RaceEnumeration, error)
}

// question returns check ck as an engines.RaceQuestion.
func (in *instrumented) question(ck check) engines.RaceQuestion {
	c := in.sites[ck.c]
	return engines.RaceQuestion{Proc: ck.q, Loc: ck.loc, Trans: slices.Clone(ck.trans),
		Site: engines.RaceSite{Proc: c.proc, Var: c.x, Trans: slices.Clone(c.trans)}, With: -1}
}

// answers reports whether t, an SC trace of the original program, ends in
// a state that answers ck: replayed step by step on the instrumented
// program, it ends without a fault with ck's process at ck's location and
// its happens-before bit for ck's site set.
func (in *instrumented) answers(ck check, t *model.Trace) bool {
	q := in.prog
	if t == nil || t.Model != model.SC || len(t.InitMem) != len(in.orig.Vars) {
		return false
	}
	mem := slices.Clone(t.InitMem)
	for _, v := range q.Vars[len(in.orig.Vars):] {
		mem = append(mem, v.Init.Value)
	}
	states, err := q.Execute(&model.Trace{Model: model.SC, InitMem: mem, InitRegs: t.InitRegs})
	if err != nil {
		return false
	}
	s := states[0]
	for _, st := range t.Steps {
		if st.Flush {
			return false
		}
		_, ns, err := q.Exec(s, st.Proc, st.Trans, false, model.SC)
		if err != nil {
			return false
		}
		s = ns
	}
	return s.Fault == nil && s.Locs[ck.q] == ck.loc && s.Mem[in.bit[ck.q][ck.c]] == 1
}

// enumerate is the second phase of Check with an Enumerator: the questions
// open are asked of it until none has an answer; each answer is checked
// again and executed on the original program before its races are kept.
// ss, when set, is the enumeration of both phases (the second phase's
// questions after its first phase's).
func (in *instrumented) enumerate(ctx context.Context, eng Enumerator, ss *session, open []check, pairKey func(q, t, c int) [2]string, found map[[2]string]bool, res *Result) error {
	if len(open) == 0 {
		return nil
	}
	var en engines.RaceEnumeration
	base := 0
	if ss != nil {
		en, base, open = ss.en, ss.n1, ss.open2
	} else {
		qs := make([]engines.RaceQuestion, len(open))
		for i, ck := range open {
			qs[i] = in.question(ck)
		}
		e, err := eng.Enumerate(in.orig, qs, func(i int, t *model.Trace) bool { return i >= 0 && i < len(open) && in.answers(open[i], t) })
		if err != nil {
			return fmt.Errorf("race questions: %w", err)
		}
		defer e.Close()
		en = e
	}
	idx := make([]int, len(open))
	for i := range idx {
		idx[i] = base + i
	}
	for len(idx) > 0 {
		i, t, r, err := en.Next(ctx, idx)
		res.Checks++
		if err != nil {
			return fmt.Errorf("race questions: %w", err)
		}
		if i < 0 {
			return endOf(r, res)
		}
		if !slices.Contains(idx, i) || !in.answers(open[i-base], t) {
			return fmt.Errorf("internal error: an answer to a race question does not replay")
		}
		if _, err := in.orig.Execute(t); err != nil {
			return fmt.Errorf("internal error: a race trace does not execute on the program: %w", err)
		}
		in.record(open[i-base], t, pairKey, found, res)
		var next []int
		for _, j := range idx {
			ck := open[j-base]
			if j != i && !in.done(ck, pairKey, found) && in.answers(ck, t) {
				in.record(ck, t, pairKey, found, res) // the same trace answers it
			}
			if j != i && !in.done(ck, pairKey, found) {
				next = append(next, j)
			}
		}
		idx = next
	}
	return nil
}

// endOf records in res how an enumeration ended without an answer.
func endOf(r *engines.Result, res *Result) error {
	if r == nil {
		return fmt.Errorf("internal error: the race questions ended with no answer")
	}
	res.States += r.Stats.States
	switch r.Status {
	case engines.Safe:
		if r.Bound != "" {
			res.Bound = r.Bound
		}
		return nil
	case engines.Inconclusive:
		res.Status = engines.Inconclusive
		res.Reason = r.Reason
		return nil
	}
	return fmt.Errorf("internal error: the race questions ended %v with no answer", r.Status)
}

// session is one engines.RaceEnumeration that answers both phases of Check: the
// questions of the first phase (one per pair of locations of Query), then
// those of the second (the checks of the instrumentation that the static
// pruning leaves).
type session struct {
	en     engines.RaceEnumeration
	pairs  []Pair
	groups [][]int
	q      *model.Program // the query program of the first phase
	n1     int            // questions of the first phase
	open2  []check
}

// newSession starts the enumeration of both phases of Check on p.
func newSession(eng Enumerator, p *model.Program, in *instrumented) (*session, error) {
	st := staticsOf(p)
	ss := &session{pairs: meeting(p, Pairs(p), st)}
	var qs []engines.RaceQuestion
	ss.q, ss.groups = Query(p, ss.pairs)
	for bi, bad := range ss.q.Bad {
		qs = append(qs, engines.RaceQuestion{Proc: bad.Locs[0].Proc, Loc: bad.Locs[0].Loc,
			Site: engines.RaceSite{Proc: bad.Locs[1].Proc, Var: ss.pairs[ss.groups[bi][0]].Var}, With: bad.Locs[1].Loc})
	}
	ss.n1 = len(qs)
	for _, ck := range in.checks {
		if !in.ordered(ck, st) {
			ss.open2 = append(ss.open2, ck)
			qs = append(qs, in.question(ck))
		}
	}
	holds := func(i int, t *model.Trace) bool {
		switch {
		case i < 0 || i >= len(qs):
			return false
		case i >= ss.n1:
			return in.answers(ss.open2[i-ss.n1], t)
		}
		states, err := p.Execute(t)
		if err != nil || t.Model != model.SC {
			return false
		}
		last := states[len(states)-1]
		return last.Fault == nil && atBad(last, ss.q.Bad[i])
	}
	en, err := eng.Enumerate(p, qs, holds)
	if err != nil {
		return nil, fmt.Errorf("race questions: %w", err)
	}
	ss.en = en
	return ss, nil
}

// adjacent is the first phase of Check on the session.
func (ss *session) adjacent(ctx context.Context, p *model.Program, pairKey func(Pair) [2]string, res *Result) error {
	found := map[[2]string]bool{}
	var open []int
	for i := range ss.n1 {
		open = append(open, i)
	}
	for len(open) > 0 {
		bi, t, r, err := ss.en.Next(ctx, open)
		res.Checks++
		if err != nil {
			return fmt.Errorf("race query: %w", err)
		}
		if bi < 0 {
			return endOf(r, res)
		}
		states, err := p.Execute(t)
		if err != nil || !slices.Contains(open, bi) {
			return fmt.Errorf("internal error: an answer to a race query does not execute: %v", err)
		}
		last := states[len(states)-1]
		if last.Fault != nil || !atBad(last, ss.q.Bad[bi]) {
			return fmt.Errorf("internal error: a race trace ends with no pair of accesses enabled")
		}
		for _, i := range ss.groups[bi] {
			pr := ss.pairs[i]
			if k := pairKey(pr); !found[k] {
				found[k] = true
				res.Races = append(res.Races, Race{Pair: pr, Trace: t})
			}
		}
		var next []int
		for _, b := range open {
			if b == bi {
				continue
			}
			for _, i := range ss.groups[b] {
				if !found[pairKey(ss.pairs[i])] {
					next = append(next, b)
					break
				}
			}
		}
		open = next
	}
	return nil
}

// atBad reports whether s has every process bad names at its location.
func atBad(s model.State, bad model.BadState) bool {
	for _, pl := range bad.Locs {
		if s.Locs[pl.Proc] != pl.Loc {
			return false
		}
	}
	return true
}
