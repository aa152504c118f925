package race

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// This file is the second static pruning of the second phase of Check:
// questions that a counted join orders, the model of a sync.WaitGroup
// that the set-up adds to before the goroutines start, each goroutine
// calls Done once at its end and another waits on.
//
// A counted join is a variable w with a constant initial value n > 0
// that is written only by locked decrements by one (w := w - 1), each
// on no cycle of its process, so that it runs at most once; d, the
// number of such decrements in the program, is at most n. A wait is an
// atomic read of w that requires 0. A wait returns only once w is 0,
// that is once every one of the d decrements has run (with d < n, never).
// Each decrement reads the one before it in w's order of writes, and the
// wait reads the last: by the Go memory model every decrement is
// synchronized before the wait's return. So an access a process p makes
// at a location that no path leads to from its decrement (it runs before
// the decrement, when both run) happens before an access another process
// q makes at a location that every path of q reaches through a wait:
// their question is answered "ordered", whichever process asks it.

// A join is one counted join's locations: before[p][l] when process p
// has a decrement of the join and no path of p leads from one to l;
// after[q][l] when every path of q to its location l takes a wait.
type join struct {
	before, after [][]bool
}

// joins returns the counted joins of p (see above).
func joins(p *model.Program) []join {
	var out []join
	for w, v := range p.Vars {
		if v.Init.Any || v.Init.Value <= 0 {
			continue
		}
		j, decs, ok := joinOf(p, w)
		if ok && decs > 0 && int64(decs) <= v.Init.Value {
			out = append(out, j)
		}
	}
	return out
}

// joinOf returns the locations of w as a join and the number of its
// decrements, and false when a write of w is not a decrement by one on
// no cycle of its process.
func joinOf(p *model.Program, w int) (join, int, bool) {
	j := join{before: make([][]bool, len(p.Procs)), after: make([][]bool, len(p.Procs))}
	decs := 0
	for qi, q := range p.Procs {
		var decTo []int // the targets of q's decrements
		var waits []bool
		for ti, t := range q.Trans {
			switch {
			case decrements(t.Op, w):
				if reaches(q, []int{t.To}, nil)[t.From] {
					return join{}, 0, false // on a cycle: it may run twice
				}
				decTo = append(decTo, t.To)
			case writes(t.Op, w):
				return join{}, 0, false
			case waitsForZero(t.Op, w):
				if waits == nil {
					waits = make([]bool, len(q.Trans))
				}
				waits[ti] = true
			}
		}
		decs += len(decTo)
		if len(decTo) > 0 {
			after := reaches(q, decTo, nil)
			j.before[qi] = make([]bool, len(q.Locs))
			for l := range q.Locs {
				j.before[qi][l] = !after[l]
			}
		}
		if waits != nil {
			// The locations some path reaches without a wait, and those
			// any path reaches: every path to the others takes a wait.
			free, all := reaches(q, []int{q.Init}, waits), reaches(q, []int{q.Init}, nil)
			j.after[qi] = make([]bool, len(q.Locs))
			for l := range q.Locs {
				j.after[qi][l] = all[l] && !free[l]
			}
		}
	}
	return j, decs, true
}

// separates reports whether j orders an access at a before one at b: a
// is a location before its process's decrement, b one after a wait.
func (j join) separates(a, b model.ProcLoc) bool {
	return j.before[a.Proc] != nil && j.before[a.Proc][a.Loc] && j.after[b.Proc] != nil && j.after[b.Proc][b.Loc]
}

// decrements reports whether op is a locked w := w - 1 (wrapped or not)
// whose other steps only read w and assign registers.
func decrements(op model.Op, w int) bool {
	if op.Kind != model.Locked {
		return false
	}
	n := 0
	for _, b := range op.Body {
		switch {
		case b.NoSync:
			return false
		case b.Kind == model.Write && b.Var == w:
			e := b.Expr
			if wr, ok := e.(model.Wrap); ok {
				e = wr.X
			}
			bin, ok := e.(model.Binary)
			if !ok || bin.Op != model.OpAdd || bin.X != model.V(w) || bin.Y != model.C(-1) {
				return false
			}
			n++
		case b.Kind == model.Write:
			return false // another variable changes with it
		case b.Kind == model.Read && b.Var == w && b.Expr == nil:
		case b.Kind == model.Assign:
		default:
			return false
		}
	}
	return n == 1
}

// waitsForZero reports whether op is an atomic read of w that requires 0.
func waitsForZero(op model.Op, w int) bool {
	return op.Kind == model.Read && op.Var == w && op.Atomic && !op.NoSync && op.Expr == model.C(0)
}

// reaches returns the locations of q that some path from one of from
// reaches, taking no transition of skip (nil: none).
func reaches(q *model.Process, from []int, skip []bool) []bool {
	seen := make([]bool, len(q.Locs))
	work := append([]int(nil), from...)
	for _, l := range from {
		seen[l] = true
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ti := range q.Out(l) {
			if skip != nil && skip[ti] {
				continue
			}
			if to := q.Trans[ti].To; !seen[to] {
				seen[to] = true
				work = append(work, to)
			}
		}
	}
	return seen
}

// meeting returns the pairs of p that statics st does not keep apart.
func meeting(p *model.Program, pairs []Pair, st statics) []Pair {
	return slices.DeleteFunc(pairs, func(pr Pair) bool {
		lp := pr.locs(p)
		return st.apart(lp[0], lp[1])
	})
}
