package bmc

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// This file is the static focusing of refinement: the property Φ_PRP is a
// disjunction of goals (the bad states and the faulting attempts), and REF
// decides them a group at a time, each group starting from the reads that
// can matter to it: the reads of the transitions that may come before the
// goal's locations in its processes, and, closing over the writes those
// reads may read, the reads that decide whether and what those writes
// write. A group that is refuted stays refuted (its negation is asserted),
// so later groups profit from what the solver learned.

// maxGroups bounds the groups of goals: beyond it the goals are decided
// together, from the union of their reads.
const maxGroups = 16

// group is a set of goals decided together.
type group struct {
	goals []*smt.Expr
	lit   *smt.Expr // the disjunction of the goals
	focus []bool    // by position in en.rd: the reads that can matter
}

// groups partitions the goals of Φ_PRP by the reads that can matter to
// them: goals with the same reads share a group.
func (en *encoding) groups() []*group {
	type target struct {
		lit   *smt.Expr
		focus []bool
	}
	var ts []target
	for bi, bad := range en.p.Bad {
		ts = append(ts, target{en.badSel[bi], en.closure(en.badSeeds(bad))})
	}
	for _, f := range en.faults {
		pr := en.procs[f.proc]
		seeds := make([][]bool, len(en.procs))
		seeds[f.proc] = slices.Clone(pr.before(pr.q.Trans[f.trans].From))
		seeds[f.proc][f.trans] = true
		ts = append(ts, target{pr.f[f.trans], en.closure(seeds, nil)})
	}
	var gs []*group
	key := map[string]*group{}
	for _, t := range ts {
		k := bitsKey(t.focus)
		g, ok := key[k]
		if !ok {
			g = &group{focus: t.focus}
			key[k] = g
			gs = append(gs, g)
		}
		g.goals = append(g.goals, t.lit)
	}
	if len(gs) > maxGroups {
		all := &group{focus: make([]bool, len(en.rd))}
		for _, g := range gs {
			all.goals = append(all.goals, g.goals...)
			for k, in := range g.focus {
				all.focus[k] = all.focus[k] || in
			}
		}
		gs = []*group{all}
	}
	for i, g := range gs {
		g.lit = g.goals[0]
		if len(g.goals) > 1 {
			g.lit = en.z.Bool(fmt.Sprintf("goal%d", i))
			en.assert(en.implies(g.lit, en.or(g.goals...)))
		}
	}
	return gs
}

// oneTrans returns the set of n transitions holding only t.
func oneTrans(n, t int) []bool {
	ts := make([]bool, n)
	ts[t] = true
	return ts
}

func bitsKey(bs []bool) string {
	b := make([]byte, len(bs))
	for i, x := range bs {
		if x {
			b[i] = 1
		}
	}
	return string(b)
}

// badSeeds returns the transitions that can matter to bad state bad, by
// process (nil: none of the process), and the variables whose final value
// its condition reads.
func (en *encoding) badSeeds(bad model.BadState) ([][]bool, []int) {
	seeds := make([][]bool, len(en.procs))
	mark := func(i int, ts []bool) {
		if seeds[i] == nil {
			seeds[i] = make([]bool, len(ts))
		}
		for t, in := range ts {
			seeds[i][t] = seeds[i][t] || in
		}
	}
	for _, pl := range bad.Locs {
		pr := en.procs[pl.Proc]
		for _, c := range en.u.Copies[pl.Proc][pl.Loc] {
			mark(pl.Proc, pr.before(c))
		}
	}
	var vars []int
	model.WalkExpr(bad.Cond, func(e model.Expr) {
		switch e := e.(type) {
		case model.RegRef:
			if e.Proc >= 0 && e.Proc < len(en.procs) {
				// A final register: wherever the process stops.
				all := make([]bool, len(en.procs[e.Proc].q.Trans))
				for t := range all {
					all[t] = true
				}
				mark(e.Proc, all)
			}
		case model.VarRef:
			vars = append(vars, e.Var)
		}
	})
	return seeds, vars
}

// before returns the transitions of pr that can come before location l on
// a path: those from whose target l is reachable. The caller must not
// modify the result, which is kept for the next call.
func (pr *proc) before(l int) []bool {
	if pr.pre == nil {
		pr.pre = make([][]bool, len(pr.q.Locs))
	}
	if pr.pre[l] == nil {
		pr.pre[l] = pr.computeBefore(l)
	}
	return pr.pre[l]
}

func (pr *proc) computeBefore(l int) []bool {
	return pr.beforeAny([]int{l})
}

// beforeAny returns the transitions of pr that can come before one of the
// locations ls on a path: one backward search from all of them.
func (pr *proc) beforeAny(ls []int) []bool {
	q := pr.q
	if pr.in == nil {
		pr.in = make([][]int, len(q.Locs))
		for ti, t := range q.Trans {
			pr.in[t.To] = append(pr.in[t.To], ti)
		}
	}
	out := make([]bool, len(q.Trans))
	seen := make([]bool, len(q.Locs))
	var work []int
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			work = append(work, l)
		}
	}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ti := range pr.in[c] {
			out[ti] = true
			if from := q.Trans[ti].From; !seen[from] {
				seen[from] = true
				work = append(work, from)
			}
		}
	}
	return out
}

// closure returns, by position in en.rd, the reads that can matter to a
// goal: the reads of the seed transitions and the final reads of vars,
// and, for every write of a variable such a read reads, the reads of the
// transitions that can come before the write and of the write's own.
// What a variable's writes add does not depend on the goal: it is
// computed once (readsOfWrites), so that a program with many goals (every
// panic site of inlined library code) costs a pass over each goal's seeds
// and the variables it reaches.
func (en *encoding) closure(seeds [][]bool, vars []int) []bool {
	en.readsOfWrites()
	focus := make([]bool, len(en.rd))
	varDone := make([]bool, len(en.p.Vars))
	var work []int // variables whose writes matter
	addVar := func(x int) {
		if !varDone[x] {
			varDone[x] = true
			work = append(work, x)
		}
	}
	for i, ts := range seeds {
		for t, in := range ts {
			if !in {
				continue
			}
			for _, id := range en.procs[i].acc[t] {
				if a := en.acc[id]; !a.write {
					focus[en.rdPos[id]] = true
					addVar(a.x)
				}
			}
		}
	}
	for _, x := range vars {
		if id, ok := en.final[x]; ok {
			focus[en.rdPos[id]] = true
		}
		addVar(x)
	}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, k := range en.varReads[x] {
			if !focus[k] {
				focus[k] = true
			}
			addVar(en.acc[en.rd[k]].x)
		}
	}
	return focus
}

// readsOfWrites computes en.rdPos and en.varReads: for each variable, the
// positions in rd of the reads of the transitions that can come before one
// of its writes, and of the write's own transition.
func (en *encoding) readsOfWrites() {
	if en.varReads != nil {
		return
	}
	en.rdPos = make(map[int]int, len(en.rd))
	for k, ri := range en.rd {
		en.rdPos[ri] = k
	}
	en.varReads = make([][]int, len(en.p.Vars))
	for x := range en.p.Vars {
		seen := map[int]bool{}
		done := map[[2]int]bool{}
		mark := func(i, t int) {
			if done[[2]int{i, t}] {
				return
			}
			done[[2]int{i, t}] = true
			for _, id := range en.procs[i].acc[t] {
				if a := en.acc[id]; !a.write && !seen[en.rdPos[id]] {
					seen[en.rdPos[id]] = true
					en.varReads[x] = append(en.varReads[x], en.rdPos[id])
				}
			}
		}
		// The transitions before any write of x, one backward search
		// per process, and the writes' own.
		froms := make([][]int, len(en.procs))
		for _, wi := range en.byVar[x] {
			w := en.acc[wi]
			if w.proc < 0 {
				continue
			}
			froms[w.proc] = append(froms[w.proc], en.procs[w.proc].q.Trans[w.trans].From)
			mark(w.proc, w.trans)
		}
		for i, ls := range froms {
			if len(ls) == 0 {
				continue
			}
			for t, in := range en.procs[i].beforeAny(ls) {
				if in {
					mark(i, t)
				}
			}
		}
	}
}

// firstTurn is the resource limit (in Z3's units) of a group's solver
// calls in the first round of turns; each round multiplies it by turnGrowth.
const (
	firstTurn  = 1 << 18
	turnGrowth = 4
)

// decide runs REF on the groups in turns, so that a group whose proof is
// hard does not hold up the witness of a later one: in each round every
// undecided group runs with its solver calls limited, a group whose call
// runs out of the limit waits for the next round (with a limit turnGrowth
// times larger), and the last undecided group runs without a turn limit. A
// refuted group's negation is asserted. It returns the first witness, or a
// proof when every group is refuted. limit is the engine's own bound on a
// solver call (0: none).
func (s *ia) decide(ctx context.Context, groups []*group, maxWork int64, limit uint32) (outcome, *model.Trace, string, error) {
	pending := groups
	turn := uint32(firstTurn)
	defer s.setLimit(limit)
	for len(pending) > 0 {
		var next []*group
		for i, g := range pending {
			lim := turn
			s.turn = len(pending)-i > 1 || len(next) > 0
			if !s.turn {
				lim = 0 // the last undecided group: no turn limit
			}
			if limit > 0 && (lim == 0 || limit < lim) {
				lim, s.turn = limit, false
			}
			if err := s.setLimit(lim); err != nil {
				return 0, nil, "", err
			}
			s.goal = g.lit
			s.enter(g)
			out, t, reason, err := s.ref(ctx, maxWork)
			switch {
			case err != nil:
				return 0, nil, "", err
			case out == paused:
				next = append(next, g)
			case out != proof:
				return out, t, reason, nil
			default:
				s.add(s.en.not(g.lit)) // refuted within the bound
			}
		}
		pending = next
		if turn <= math.MaxUint32/turnGrowth {
			turn *= turnGrowth
		}
	}
	return proof, nil, "", nil
}

// enter starts group g's turn: its focus reads join R, the cheap ones
// with every instance (§7.1 S3), with syncReads those of synchronisation
// variables and final reads with their biased link sets; the others join
// when a model needs them. Reads are added at a group's first turn, not
// all at once, so that the first groups' solver calls carry only their
// own reads' instances.
func (s *ia) enter(g *group) {
	en := s.en
	for k, in := range g.focus {
		r := en.acc[en.rd[k]]
		if !in || s.inR[k] {
			continue
		}
		switch {
		case s.syncReads && (r.final || s.sync[r.x]):
			s.addRead(k, s.biased(k))
		case s.syncReads:
		case cheap(r):
			s.full1(k)
		}
	}
}

// setLimit bounds each later solver call by lim resource units (0: none).
func (s *ia) setLimit(lim uint32) error {
	if lim == s.limit {
		return nil
	}
	s.limit = lim
	return s.sol.SetResourceLimit(lim)
}
