package pred

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Local-step compression.
//
// A step that only reads and writes its own process's registers (an
// assignment, an assume, a nop) commutes with every step of every other
// process, and with its own process's buffer updates. So in any run, each
// such step can be moved back to right after the step before it of the same
// process. A location of process p is transient when every transition out
// of it is such a step, their guards cover every valuation (one of them is
// always enabled), no bad state names p at it, and none of them assigns a
// register that a bad condition reads. The search then never stores a
// configuration with p at a transient location: a step of p into one is
// followed at once by p's steps out of it, until p reaches a location that
// is not transient (Lipton's reduction, or large-block encoding). A run
// that ends with p at a transient location ends, after p's remaining local
// steps, in a configuration that is bad exactly when it was: the bad states
// do not look at what those steps change. Within the locations that pass
// these tests, the targets of the back edges of a depth-first search are
// kept as stopping points, so every compressed step is finite.

// localOnly reports whether op touches nothing but its process's registers.
func localOnly(op *model.Op) bool {
	switch op.Kind {
	case model.Nop, model.Assign, model.Guard:
		return true
	}
	return false
}

// transientCandidates returns, per process and location, whether the
// location passes the static tests for being transient; whether the guards
// of its transitions cover every valuation is left to the abstraction,
// which has an oracle (see abstraction.transient).
func (s *system) transientCandidates() [][]bool {
	p := s.p
	t := s.t
	out := make([][]bool, len(p.Procs))
	for pi, q := range p.Procs {
		// The registers of q that a bad condition reads, and the locations
		// of q that a bad state names.
		badRegs := make(map[int32]bool)
		for _, c := range s.badCond {
			if c < 0 {
				continue
			}
			for _, id := range t.VarIDs(c) {
				if v := t.dvarOf[id]; v.Kind == dReg && v.P == int32(pi) {
					badRegs[v.I] = true
				}
			}
		}
		badLocs := make(map[int]bool)
		for _, b := range p.Bad {
			for _, pl := range b.Locs {
				if pl.Proc == pi {
					badLocs[pl.Loc] = true
				}
			}
		}
		cand := make([]bool, len(q.Locs))
		for l := range q.Locs {
			outs := q.Out(l)
			if len(outs) == 0 || badLocs[l] {
				continue
			}
			ok := true
			for _, ti := range outs {
				op := &q.Trans[ti].Op
				if !localOnly(op) || (op.Kind == model.Assign && badRegs[int32(op.Reg)]) {
					ok = false
					break
				}
			}
			cand[l] = ok
		}
		breakCycles(q, cand)
		out[pi] = cand
	}
	return out
}

// breakCycles removes from cand the targets of the back edges of a
// depth-first search of the transitions between candidate locations, so
// that those transitions form no cycle.
func breakCycles(q *model.Process, cand []bool) {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(q.Locs))
	type frame struct{ loc, next int }
	for root := range q.Locs {
		if !cand[root] || color[root] != white {
			continue
		}
		stack := []frame{{root, 0}}
		color[root] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			outs := q.Out(f.loc)
			if f.next == len(outs) || !cand[f.loc] {
				color[f.loc] = black
				stack = stack[:len(stack)-1]
				continue
			}
			to := q.Trans[outs[f.next]].To
			f.next++
			if !cand[to] {
				continue
			}
			switch color[to] {
			case grey:
				cand[to] = false // a back edge: stop there
			case white:
				color[to] = grey
				stack = append(stack, frame{to, 0})
			}
		}
	}
}

// transient reports whether process p's location loc is transient: it is
// a candidate and the guards of its moves under a.m cover every valuation
// (their negations are jointly unsatisfiable). The answer is cached.
func (a *abstraction) transient(p int, loc int32) (bool, error) {
	if !a.compress {
		return false, nil
	}
	if a.trans == nil {
		cands := a.s.transientCandidates()
		a.trans = make([][]int8, len(cands))
		for pi, c := range cands {
			a.trans[pi] = make([]int8, len(c))
			for l, ok := range c {
				if !ok {
					a.trans[pi][l] = -1
				}
			}
		}
	}
	switch a.trans[p][loc] {
	case 1:
		return true, nil
	case -1:
		return false, nil
	}
	t := a.s.t
	var guards, negs []tid
	covered := false
	for _, mv := range a.s.localMoves(mode{sc: true}, local{loc: loc}, p) {
		if mv.trans < 0 {
			continue
		}
		if mv.guard == idTrue {
			covered = true
			break
		}
		guards = append(guards, mv.guard)
		negs = append(negs, t.Not(mv.guard))
	}
	// A guard and its negation (an if and its else) cover every
	// valuation without a solver; otherwise the oracle decides.
	for _, g := range guards {
		if slices.Contains(negs, g) {
			covered = true
		}
	}
	if !covered && len(negs) > 0 {
		sat, err := a.or.sat(negs)
		if err != nil {
			return false, err
		}
		covered = !sat
	}
	a.trans[p][loc] = -1
	if covered {
		a.trans[p][loc] = 1
	}
	return covered, nil
}

// settle hands st to keep when process p is not at a transient location
// (or st is a fault); otherwise it takes every enabled step of p out of the
// location, recording it in more, and settles each successor in turn. It
// stops, reporting true, when keep does.
func (a *abstraction) settle(st absState, p int, more []event, keep func(absState, []event) (bool, error)) (bool, error) {
	if st.c.fault {
		return keep(st, more)
	}
	tr, err := a.transient(p, st.c.procs[p].loc)
	if err != nil || !tr {
		if err != nil {
			return false, err
		}
		return keep(st, more)
	}
	a.witnessOf(&st)
	for _, mv := range a.s.localMoves(a.m, st.c.procs[p], p) {
		if mv.trans < 0 {
			continue // a buffer update: it commutes with p's local steps
		}
		ns, ok, err := a.successor(st, &mv)
		if err != nil {
			return false, err
		}
		if !ok {
			continue
		}
		done, err := a.settle(ns, p, append(more[:len(more):len(more)], mv.event()), keep)
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}
