package bmc

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
)

// MaxBadStates bounds the bad states of an unrolled program: a bad state
// that names locations of several processes becomes one bad state per
// choice of a copy of each location, and Unroll fails rather than build
// more than this many.
const MaxBadStates = 1 << 14

// Unrolled is a loop-free program made from another by unrolling its loops,
// with the maps back to the original.
type Unrolled struct {
	// Prog is the loop-free program: the variables and registers of the
	// original, and for each process a DAG of copies of its locations.
	// Its bad states are the original's, one for every choice of copies
	// of the locations each names.
	Prog *model.Program
	// Loops reports whether some process of the original has a loop.
	Loops bool
	// Cut reports whether some execution of the original takes more
	// backward jumps than the bound: the unrolled program then has fewer
	// executions than the original.
	Cut bool
	// Loc[i][l] is the original location of location l of process i of
	// Prog; Trans[i][t] the original transition of its transition t.
	Loc, Trans [][]int
	// Copies[i][l] lists the locations of process i of Prog that copy
	// location l of the original (none when l is unreachable).
	Copies [][][]int
}

// Unroll returns p with its loops unrolled to k backward jumps per process:
// the executions of the result are, step for step, the executions of p in
// which every process takes at most k backward jumps. A backward jump is a
// back edge of the depth-first search of the process's automaton from its
// initial location (transitions in order), so a loop body that runs n times
// takes n-1 backward jumps (a spin loop that retries k times, k). Location
// (l, c) of the result is location l reached after c backward jumps; a back
// edge leaving a copy with c = k is dropped. Locations unreachable from
// the initial location in the automaton are dropped too.
//
// The result has the same variables and registers as p, and its
// transitions carry the same operations, so a trace of the result is a
// trace of p once its transition indices are mapped through Trans (see
// [Unrolled.Original]). A loop-free p is returned with Loops false and
// otherwise unchanged but for the dropped unreachable locations.
func Unroll(p *model.Program, k int) (*Unrolled, error) {
	u, err := unroll(p, k)
	if err != nil {
		return nil, err
	}
	if err := u.expandBad(p); err != nil {
		return nil, err
	}
	if err := u.Prog.Validate(); err != nil {
		return nil, fmt.Errorf("internal error: the unrolled program is invalid: %w", err)
	}
	return u, nil
}

// unroll builds the unrolled processes, without bad states.
func unroll(p *model.Program, k int) (*Unrolled, error) {
	if k < 0 {
		return nil, fmt.Errorf("negative unrolling bound %d", k)
	}
	u := &Unrolled{Prog: &model.Program{Name: p.Name, Vars: append([]model.Var(nil), p.Vars...), Ints: p.Ints}}
	for _, q := range p.Procs {
		back := backEdges(q)
		for _, b := range back {
			if b {
				u.Loops = true
				break
			}
		}
		nq := &model.Process{Name: q.Name, Regs: append([]model.Reg(nil), q.Regs...)}
		type key struct{ l, c int }
		index := map[key]int{}
		var locOrig, transOrig []int
		copies := make([][]int, len(q.Locs))
		var work []key
		get := func(kk key) int {
			if id, ok := index[kk]; ok {
				return id
			}
			name := q.Locs[kk.l].Name
			if kk.c > 0 {
				name = fmt.Sprintf("%s#%d", name, kk.c)
			}
			id := nq.AddLoc(name, q.Locs[kk.l].Pos)
			index[kk] = id
			locOrig = append(locOrig, kk.l)
			copies[kk.l] = append(copies[kk.l], id)
			work = append(work, kk)
			return id
		}
		nq.Init = get(key{q.Init, 0})
		for len(work) > 0 {
			cur := work[0]
			work = work[1:]
			from := index[cur]
			for _, ti := range q.Out(cur.l) {
				t := q.Trans[ti]
				c := cur.c
				if back[ti] {
					if c == k {
						u.Cut = true
						continue
					}
					c++
				}
				to := get(key{t.To, c})
				op := t.Op
				if op.Body != nil {
					op.Body = append([]model.Op(nil), op.Body...)
				}
				nq.AddTrans(from, op, to, t.Pos)
				transOrig = append(transOrig, ti)
			}
		}
		u.Prog.Procs = append(u.Prog.Procs, nq)
		u.Loc = append(u.Loc, locOrig)
		u.Trans = append(u.Trans, transOrig)
		u.Copies = append(u.Copies, copies)
	}
	return u, nil
}

// backEdges marks the back edges of the depth-first search of q from its
// initial location.
func backEdges(q *model.Process) []bool {
	const (
		unseen = iota
		active
		done
	)
	back := make([]bool, len(q.Trans))
	mark := make([]uint8, len(q.Locs))
	type frame struct{ l, next int }
	stack := []frame{{q.Init, 0}}
	mark[q.Init] = active
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		out := q.Out(f.l)
		if f.next == len(out) {
			mark[f.l] = done
			stack = stack[:len(stack)-1]
			continue
		}
		ti := out[f.next]
		f.next++
		to := q.Trans[ti].To
		switch mark[to] {
		case active:
			back[ti] = true
		case unseen:
			mark[to] = active
			stack = append(stack, frame{to, 0})
		}
	}
	return back
}

// expandBad gives u.Prog the bad states of p, one for each choice of copies.
func (u *Unrolled) expandBad(p *model.Program) error {
	for bi, b := range p.Bad {
		choices := make([][]int, len(b.Locs))
		n := 1
		for i, pl := range b.Locs {
			choices[i] = u.Copies[pl.Proc][pl.Loc]
			n *= len(choices[i])
			if n > MaxBadStates {
				return fmt.Errorf("unrolling %s: bad state %s has more than %d copies", p.Name, p.BadName(bi), MaxBadStates)
			}
		}
		if n == 0 {
			continue // a location no execution reaches
		}
		pick := make([]int, len(b.Locs))
		for {
			nb := model.BadState{Name: b.Name, Cond: b.Cond, Pos: b.Pos, Locs: make([]model.ProcLoc, len(b.Locs))}
			for i, pl := range b.Locs {
				nb.Locs[i] = model.ProcLoc{Proc: pl.Proc, Loc: choices[i][pick[i]]}
			}
			u.Prog.Bad = append(u.Prog.Bad, nb)
			if len(u.Prog.Bad) > MaxBadStates {
				return fmt.Errorf("unrolling %s: more than %d bad states", p.Name, MaxBadStates)
			}
			i := 0
			for ; i < len(pick); i++ {
				pick[i]++
				if pick[i] < len(choices[i]) {
					break
				}
				pick[i] = 0
			}
			if i == len(pick) {
				break
			}
		}
	}
	return nil
}

// Original returns the trace of the original program that takes the steps
// of t, a trace of u.Prog: the same steps with the original transitions.
func (u *Unrolled) Original(t *model.Trace) *model.Trace {
	out := *t
	out.Steps = make([]model.Step, len(t.Steps))
	for i, st := range t.Steps {
		if !st.Flush {
			st.Trans = u.Trans[st.Proc][st.Trans]
		}
		out.Steps[i] = st
	}
	return &out
}
