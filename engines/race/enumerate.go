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
// happens-before directly and keeps one solver across the questions.

// A Question of the second phase: can process Proc be at location Loc,
// about to perform the transitions Trans (which conflict with Site), while
// an access of Site has run that does not happen before Proc's point?
type Question struct {
	Proc, Loc int
	Trans     []int
	Site      Site
}

// A Site is the transitions Trans of process Proc that access variable Var
// and that the user names alike (see [Options.Key]).
type Site struct {
	Proc, Var int
	Trans     []int
}

// An Enumerator is an engine that answers the questions of the second
// phase of [Check] itself; Check then uses it instead of checking the
// instrumented program.
type Enumerator interface {
	engines.Engine
	// Enumerate starts answering questions qs about p. holds(i, t)
	// reports whether t, an SC trace of p, ends in a state that answers
	// question i (by replaying it with happens-before bits): the check an
	// engine makes of every candidate before it returns it.
	Enumerate(p *model.Program, qs []Question, holds func(i int, t *model.Trace) bool) (Enumeration, error)
}

// An Enumeration answers the questions of one program, one at a time.
type Enumeration interface {
	// Next returns an open question (by index) and an SC trace of the
	// program that answers it (holds(i, t) is true), or -1 and a result:
	// Safe when no open question has an answer (within Result.Bound),
	// Inconclusive when a budget ran out.
	Next(ctx context.Context, open []int) (int, *model.Trace, *engines.Result, error)
	// Close releases the enumeration's resources.
	Close()
}

// Acquires returns the variables whose last release op synchronises after
// (it acquires them): the variable of an atomic load, and those a locked
// operation observes.
func Acquires(op model.Op) []int {
	switch op.Kind {
	case model.Read:
		if op.Atomic {
			return []int{op.Var}
		}
	case model.Locked:
		return observes(op)
	}
	return nil
}

// Releases returns the variables op releases: those a locked operation
// writes. A plain store releases nothing.
func Releases(op model.Op) []int {
	var xs []int
	if op.Kind == model.Locked {
		for _, b := range op.Body {
			if b.Kind == model.Write && !slices.Contains(xs, b.Var) {
				xs = append(xs, b.Var)
			}
		}
	}
	return xs
}

// question returns check ck as a Question.
func (in *instrumented) question(ck check) Question {
	c := in.sites[ck.c]
	return Question{Proc: ck.q, Loc: ck.loc, Trans: slices.Clone(ck.trans),
		Site: Site{Proc: c.proc, Var: c.x, Trans: slices.Clone(c.trans)}}
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
func (in *instrumented) enumerate(ctx context.Context, eng Enumerator, open []check, pairKey func(q, t, c int) [2]string, found map[[2]string]bool, res *Result) error {
	if len(open) == 0 {
		return nil
	}
	qs := make([]Question, len(open))
	for i, ck := range open {
		qs[i] = in.question(ck)
	}
	en, err := eng.Enumerate(in.orig, qs, func(i int, t *model.Trace) bool { return i >= 0 && i < len(open) && in.answers(open[i], t) })
	if err != nil {
		return fmt.Errorf("race questions: %w", err)
	}
	defer en.Close()
	idx := make([]int, len(open))
	for i := range idx {
		idx[i] = i
	}
	for len(idx) > 0 {
		i, t, r, err := en.Next(ctx, idx)
		res.Checks++
		if err != nil {
			return fmt.Errorf("race questions: %w", err)
		}
		if i < 0 {
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
		if !slices.Contains(idx, i) || !in.answers(open[i], t) {
			return fmt.Errorf("internal error: an answer to a race question does not replay")
		}
		if _, err := in.orig.Execute(t); err != nil {
			return fmt.Errorf("internal error: a race trace does not execute on the program: %w", err)
		}
		in.record(open[i], t, pairKey, found, res)
		var next []int
		for _, j := range idx {
			if j != i && !in.done(open[j], pairKey, found) && in.answers(open[j], t) {
				in.record(open[j], t, pairKey, found, res) // the same trace answers it
			}
			if j != i && !in.done(open[j], pairKey, found) {
				next = append(next, j)
			}
		}
		idx = next
	}
	return nil
}
