package fence

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Place is where a barrier may go. It is one of two kinds, made by
// [AfterWrite] and [AfterLoc]; exactly one of Loc and Trans is non-negative.
//
// A barrier belongs to a store: a write place (Trans ≥ 0, Loc = -1) is the
// edge of write transition Trans of process Proc, and its barrier runs right
// after that write and after no other, however many other transitions reach
// the write's target (a loop head, the join after an if). This is where a Go
// programmer puts a barrier, by making that store atomic.
//
// A location place (Loc ≥ 0, Trans = -1) is just after location Loc of Proc,
// as the paper identifies fences with local states: its barrier runs before
// every transition that leaves Loc, whichever way the process came. Only
// -placement=anywhere offers location places (see [Candidates]).
//
// The barrier is a full fence, or, when StoreStore is set, a store-store
// fence ([model.SSFence]), which orders stores only and matters under PSO
// alone (see [Place.AsStoreStore]).
type Place struct {
	Proc int
	// Loc is the location of a location place, -1 for a write place.
	Loc int
	// Trans is the write transition of a write place, -1 for a location
	// place.
	Trans int
	// StoreStore makes the barrier a store-store fence.
	StoreStore bool
}

// AfterWrite returns the write place of transition trans of process proc: a
// barrier right after that write, on its own edge.
func AfterWrite(proc, trans int) Place { return Place{Proc: proc, Loc: -1, Trans: trans} }

// AfterLoc returns the location place of location loc of process proc: a
// barrier before every transition leaving loc.
func AfterLoc(proc, loc int) Place { return Place{Proc: proc, Loc: loc, Trans: -1} }

// AsStoreStore returns pl with a store-store fence for its barrier.
func (pl Place) AsStoreStore() Place {
	pl.StoreStore = true
	return pl
}

// Full returns pl with a full fence for its barrier.
func (pl Place) Full() Place {
	pl.StoreStore = false
	return pl
}

// OnWrite reports whether pl is a write place.
func (pl Place) OnWrite() bool { return pl.Trans >= 0 }

// check returns an error unless pl is a well-formed place of p: a location
// of p, or a write transition of p.
func (pl Place) check(p *model.Program) error {
	if pl.Proc < 0 || pl.Proc >= len(p.Procs) {
		return fmt.Errorf("place %+v names no process of %s", pl, p.Name)
	}
	q := p.Procs[pl.Proc]
	switch {
	case pl.Loc >= 0 && pl.Trans < 0:
		if pl.Loc >= len(q.Locs) {
			return fmt.Errorf("place %+v names no location of %s", pl, p.Name)
		}
	case pl.Trans >= 0 && pl.Loc < 0:
		if pl.Trans >= len(q.Trans) {
			return fmt.Errorf("place %+v names no transition of %s", pl, p.Name)
		}
		if q.Trans[pl.Trans].Op.Kind != model.Write {
			return fmt.Errorf("place %+v names a transition of %s that is not a write", pl, p.Name)
		}
	default:
		return fmt.Errorf("place %+v names both a location and a transition, or neither (make places with AfterWrite and AfterLoc)", pl)
	}
	return nil
}

// Format names pl through p: a location place as process@location, a write
// place as process@from->to, the source and target of its write (with the
// transition's index, process@from->to#t, when another transition of the
// process has the same source and target); "(ss)" follows the place of a
// store-store fence.
func (pl Place) Format(p *model.Program) string {
	if pl.StoreStore {
		return pl.Full().Format(p) + "(ss)"
	}
	if pl.Proc < 0 || pl.Proc >= len(p.Procs) {
		if pl.OnWrite() {
			return fmt.Sprintf("p%d@t%d", pl.Proc, pl.Trans)
		}
		return fmt.Sprintf("p%d@%d", pl.Proc, pl.Loc)
	}
	q := p.Procs[pl.Proc]
	if pl.OnWrite() {
		if pl.Trans >= len(q.Trans) {
			return fmt.Sprintf("%s@t%d", q.Name, pl.Trans)
		}
		t := q.Trans[pl.Trans]
		name := func(l int) string {
			if l < 0 || l >= len(q.Locs) {
				return fmt.Sprint(l)
			}
			return q.Locs[l].Name
		}
		s := q.Name + "@" + name(t.From) + "->" + name(t.To)
		for ti, u := range q.Trans {
			if ti != pl.Trans && u.From == t.From && u.To == t.To {
				return fmt.Sprintf("%s#%d", s, pl.Trans)
			}
		}
		return s
	}
	if pl.Loc < 0 || pl.Loc >= len(q.Locs) {
		return fmt.Sprintf("%s@%d", q.Name, pl.Loc)
	}
	return q.Name + "@" + q.Locs[pl.Loc].Name
}

// comparePlaces orders places by process, then write places (by transition)
// before location places (by location), a store-store fence before a full
// one at the same place. Among sets of equal size and cost, the search thus
// prefers barriers after stores, which a Go programmer puts in by making
// the store atomic.
func comparePlaces(a, b Place) int {
	if c := cmp.Compare(a.Proc, b.Proc); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Loc, b.Loc); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Trans, b.Trans); c != 0 {
		return c
	}
	switch {
	case a.StoreStore == b.StoreStore:
		return 0
	case a.StoreStore:
		return -1
	}
	return 1
}

// normalize returns the places sorted and without duplicates, in a new slice.
func normalize(places []Place) []Place {
	s := slices.Clone(places)
	slices.SortFunc(s, comparePlaces)
	return slices.Compact(s)
}

// Insert returns a copy of p (made with [model.Program.Clone]) with a barrier
// at each place: the paper's P ⊕ F, with barriers on write edges as well as
// at locations. For a write place, the write's edge (f, write, t) becomes
// (f, write, m), a new location m, and a transition (m, fence, t) is
// appended: only that write is followed by the barrier, not the others that
// reach t. For a location place f of process q, a new location f' is
// appended to q; every transition that left f leaves f' instead; and a
// transition (f, fence, f') is appended. Existing locations and transitions
// keep their indices, so bad states, traces and places of p keep their
// meaning; a bad state naming f still names f (the state just before a
// location barrier; a write's target t is reached only after the write's
// barrier). The fence transition of a write place, and m, take the position
// of the write; those of a location place take the position of f, or when f
// has none that of the first transition leaving f, so that a barrier can be
// reported on a source line.
//
// A place with StoreStore set gets a store-store fence (model.SSFenceOp)
// where the others get a full one, and its new location is named
// "_ssfenced" for "_fenced".
//
// Duplicate places are inserted once; the new locations are appended in the
// order of the sorted places. Insert panics if a place is not a location or a
// write transition of p.
func Insert(p *model.Program, places []Place) *model.Program {
	c := p.Clone()
	for _, pl := range normalize(places) {
		if err := pl.check(p); err != nil {
			panic("fence.Insert: " + err.Error())
		}
		q := c.Procs[pl.Proc]
		op, suffix := model.FenceOp(), "_fenced"
		if pl.StoreStore {
			op, suffix = model.SSFenceOp(), "_ssfenced"
		}
		if pl.OnWrite() {
			w := q.Trans[pl.Trans]
			mid := q.AddLoc(freshLocName(q, fmt.Sprintf("%s%s_t%d", q.Locs[w.To].Name, suffix, pl.Trans)), w.Pos)
			q.Trans[pl.Trans].To = mid
			q.AddTrans(mid, op, w.To, w.Pos)
			continue
		}
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
		after := q.AddLoc(freshLocName(q, q.Locs[f].Name+suffix), pos)
		for ti := range q.Trans {
			if q.Trans[ti].From == f {
				q.Trans[ti].From = after
			}
		}
		q.AddTrans(f, op, after, pos)
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
