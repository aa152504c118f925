package fence

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Place is where a barrier may go: just after location Loc of process Proc
// (the paper identifies fences with local states).
type Place struct {
	Proc, Loc int
}

// Format names pl as process@location through p.
func (pl Place) Format(p *model.Program) string {
	if pl.Proc < 0 || pl.Proc >= len(p.Procs) {
		return fmt.Sprintf("p%d@%d", pl.Proc, pl.Loc)
	}
	q := p.Procs[pl.Proc]
	if pl.Loc < 0 || pl.Loc >= len(q.Locs) {
		return fmt.Sprintf("%s@%d", q.Name, pl.Loc)
	}
	return q.Name + "@" + q.Locs[pl.Loc].Name
}

// comparePlaces orders places by process, then location.
func comparePlaces(a, b Place) int {
	if c := cmp.Compare(a.Proc, b.Proc); c != 0 {
		return c
	}
	return cmp.Compare(a.Loc, b.Loc)
}

// normalize returns the places sorted and without duplicates, in a new slice.
func normalize(places []Place) []Place {
	s := slices.Clone(places)
	slices.SortFunc(s, comparePlaces)
	return slices.Compact(s)
}

// Insert returns a copy of p (made with [model.Program.Clone]) with a barrier
// just after each place: the paper's P ⊕ F. For a place f of process q, a new
// location f' is appended to q; every transition that left f leaves f'
// instead; and a transition (f, fence, f') is appended. Existing locations and
// transitions keep their indices, so bad states, traces and places of p keep
// their meaning; a bad state naming f still names f (the state just before the
// barrier). The fence transition, and f', take the position of f, or when f has
// none that of the first transition leaving f, so that a barrier can be
// reported on a source line.
//
// Duplicate places are inserted once; the new locations are appended in the
// order of the sorted places. Insert panics if a place names no location of p.
func Insert(p *model.Program, places []Place) *model.Program {
	c := p.Clone()
	for _, pl := range normalize(places) {
		if pl.Proc < 0 || pl.Proc >= len(c.Procs) || pl.Loc < 0 || pl.Loc >= len(c.Procs[pl.Proc].Locs) {
			panic(fmt.Sprintf("fence.Insert: place %+v names no location of %s", pl, p.Name))
		}
		q := c.Procs[pl.Proc]
		f := pl.Loc
		pos := q.Locs[f].Pos
		first := -1
		for ti := range q.Trans {
			if q.Trans[ti].From == f {
				first = ti
				break
			}
		}
		if !pos.IsValid() && first >= 0 {
			pos = q.Trans[first].Pos
		}
		after := q.AddLoc(freshLocName(q, q.Locs[f].Name+"_fenced"), pos)
		for ti := range q.Trans {
			if q.Trans[ti].From == f {
				q.Trans[ti].From = after
			}
		}
		q.AddTrans(f, model.FenceOp(), after, pos)
	}
	return c
}

// freshLocName returns name, or name with a numeric suffix, so that no
// location of q is called the same.
func freshLocName(q *model.Process, name string) string {
	if q.LocIndex(name) < 0 {
		return name
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s%d", name, i)
		if q.LocIndex(n) < 0 {
			return n
		}
	}
}

// Unfence maps a trace of Insert(p, F), for any F, to a trace of p: it drops
// the steps that take an inserted fence transition (those whose index is past
// p's own transitions), which change nothing but the location. Every other
// step keeps its transition index, which Insert leaves unchanged, so the
// result replays on p and ends in the same bad state. The steps are copied.
func Unfence(p *model.Program, t *model.Trace) *model.Trace {
	u := *t
	u.Steps = make([]model.Step, 0, len(t.Steps))
	for _, st := range t.Steps {
		if !st.Flush && st.Proc >= 0 && st.Proc < len(p.Procs) && st.Trans >= len(p.Procs[st.Proc].Trans) {
			continue
		}
		u.Steps = append(u.Steps, st)
	}
	return &u
}
