package fence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Overtaking is a read that executed while an older write of the same process
// was still in that process's store buffer (x86-TSO's only relaxation): the
// pair (j, i) of the paper's Overtaken, with the places where a barrier would
// have forbidden it. Under PSO it is also a store that reached memory while
// an older store of its process, to another variable, had not (ByStore).
type Overtaking struct {
	// Proc is the process that wrote and read.
	Proc int
	// Write is the index in the trace's Steps of the write that was overtaken,
	// and WriteTrans its transition in Proc.
	Write, WriteTrans int
	// Read is the index in the trace's Steps of the overtaking read, and
	// ReadTrans its transition in Proc; for an overtaking by a store, those
	// of the later write.
	Read, ReadTrans int
	// ByStore is set when a later store overtook the write (under PSO):
	// Flush is then the index of the step at which it reached memory.
	ByStore bool
	Flush   int
	// Places are the candidate barrier places: the write's own place
	// ([AfterWrite]), the places of the writes Proc issues after it and
	// before the read, and every location Proc leaves after the write and up
	// to the read, the read's own source included ([AfterLoc]), in the order
	// taken. A barrier at any of them forces the write out of the buffer
	// before the read executes; barriers elsewhere do not come between the
	// two. They are the paper's q_k(p) for j ≤ k < i, with a barrier after a
	// write belonging to that write's edge, before the intersection with a
	// placement constraint. For an overtaking by a store, each place comes
	// twice: with a store-store fence, then with a full one.
	Places []Place
}

// Format describes o in one line, naming things through p (the program the
// trace ran on).
func (o Overtaking) Format(p *model.Program) string {
	q := p.Procs[o.Proc]
	w := q.Trans[o.WriteTrans]
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the %s (step %d", q.Name, w.Op.Format(p, q), o.Write+1)
	if w.Pos.IsValid() {
		fmt.Fprintf(&b, ", %s", w.Pos)
	}
	r := q.Trans[o.ReadTrans]
	fmt.Fprintf(&b, ") is overtaken by the %s (step %d", r.Op.Format(p, q), o.Read+1)
	if r.Pos.IsValid() {
		fmt.Fprintf(&b, ", %s", r.Pos)
	}
	b.WriteString(")")
	if o.ByStore {
		fmt.Fprintf(&b, ", which reaches memory first (step %d)", o.Flush+1)
	}
	b.WriteString("; barrier places:")
	if len(o.Places) == 0 {
		b.WriteString(" none")
	}
	for _, pl := range o.Places {
		b.WriteString(" " + pl.Format(p))
	}
	return b.String()
}

// Overtakings returns every overtaking in the TSO trace t of p, ordered by
// read, then by write (in a PSO trace, in the order of the steps, see
// psoOvertakings). For every step that takes a transition whose operation
// is a plain read (a locked operation needs an empty buffer and overtakes
// nothing) of process q on variable x, the overtaken writes are q's buffered
// writes newer than q's newest buffered write to x, or all of q's buffered
// writes when none is to x. Which step issued each buffered write is tracked
// while replaying: a write appends its step, a flush removes the oldest.
//
// A bad-state condition that names memory adds no overtaking: package model
// lets it hold only once every store buffer is empty.
//
// t should replay on p ([model.Program.Replay]), as every engine's trace
// does. If it does not, Overtakings returns the overtakings of the longest
// prefix that does. An SC trace has none.
func Overtakings(p *model.Program, t *model.Trace) []Overtaking {
	states, _ := p.Replay(t)
	return overtakings(p, t, states)
}

// overtakings computes Overtakings from the states of a replay: states[k] is
// the state before t.Steps[k]. Only the first len(states)-1 steps are used.
func overtakings(p *model.Program, t *model.Trace, states []model.State) []Overtaking {
	if t.Model == model.PSO && len(states) > 0 {
		return psoOvertakings(p, t, len(states)-1)
	}
	if t.Model != model.TSO || len(states) == 0 {
		return nil
	}
	n := min(len(t.Steps), len(states)-1)
	// origin[q] is the step that issued each entry of q's buffer, oldest first.
	origin := make([][]int, len(p.Procs))
	var out []Overtaking
	for k := 0; k < n; k++ {
		st := t.Steps[k]
		if st.Flush {
			if len(origin[st.Proc]) > 0 {
				origin[st.Proc] = origin[st.Proc][1:]
			}
			continue
		}
		q := p.Procs[st.Proc]
		tr := q.Trans[st.Trans]
		switch tr.Op.Kind {
		case model.Write:
			origin[st.Proc] = append(origin[st.Proc], k)
		case model.Read:
			buf := states[k].Bufs[st.Proc]
			pending := origin[st.Proc]
			if len(buf) != len(pending) {
				// Cannot happen for a replayed trace: the buffer and the
				// writes that filled it are in step.
				panic(fmt.Sprintf("fence: buffer of %s has %d entries, %d writes pending at step %d", q.Name, len(buf), len(pending), k+1))
			}
			last := -1
			for j := len(buf) - 1; j >= 0; j-- {
				if buf[j].Var == tr.Op.Var {
					last = j
					break
				}
			}
			for _, w := range pending[last+1:] {
				out = append(out, Overtaking{
					Proc: st.Proc, Write: w, WriteTrans: t.Steps[w].Trans,
					Read: k, ReadTrans: st.Trans,
					Places: placesBetween(p, t, st.Proc, w, k),
				})
			}
		}
	}
	return out
}

// psoOvertakings returns the overtakings of the first n steps of t, a PSO
// trace of p (see [Overtakings]): the reads that overtook an older write
// of their process to another variable, as under TSO (the writes issued
// after the process's newest pending write to the variable read, or all
// pending writes when none is to it), and the stores that reached memory
// while an older store of their process to another variable was pending.
// Which step issued each pending store is tracked per process and
// variable: a write appends its step, a flush of the variable removes the
// oldest.
func psoOvertakings(p *model.Program, t *model.Trace, n int) []Overtaking {
	n = min(n, len(t.Steps))
	origin := make([][][]int, len(p.Procs)) // by process and variable
	for i := range origin {
		origin[i] = make([][]int, len(p.Vars))
	}
	var out []Overtaking
	// older calls f for every pending write of process qi to a variable
	// other than x issued after step after.
	older := func(qi, x, after int, f func(w int)) {
		for y, ws := range origin[qi] {
			if y == x {
				continue
			}
			for _, w := range ws {
				if w > after {
					f(w)
				}
			}
		}
	}
	for k := 0; k < n; k++ {
		st := t.Steps[k]
		if st.Flush {
			ws := origin[st.Proc][st.Var]
			if len(ws) == 0 {
				continue
			}
			later := ws[0]
			origin[st.Proc][st.Var] = ws[1:]
			var over []int
			older(st.Proc, st.Var, -1, func(w int) {
				if w < later {
					over = append(over, w)
				}
			})
			slices.Sort(over)
			for _, w := range over {
				var places []Place
				for _, pl := range placesBetween(p, t, st.Proc, w, later) {
					places = append(places, pl.AsStoreStore(), pl)
				}
				out = append(out, Overtaking{
					Proc: st.Proc, Write: w, WriteTrans: t.Steps[w].Trans,
					Read: later, ReadTrans: t.Steps[later].Trans, ByStore: true, Flush: k,
					Places: places,
				})
			}
			continue
		}
		op := p.Procs[st.Proc].Trans[st.Trans].Op
		switch op.Kind {
		case model.Write:
			origin[st.Proc][op.Var] = append(origin[st.Proc][op.Var], k)
		case model.Read:
			last := -1
			if ws := origin[st.Proc][op.Var]; len(ws) > 0 {
				last = ws[len(ws)-1]
			}
			var over []int
			older(st.Proc, op.Var, last, func(w int) { over = append(over, w) })
			slices.Sort(over)
			for _, w := range over {
				out = append(out, Overtaking{
					Proc: st.Proc, Write: w, WriteTrans: t.Steps[w].Trans,
					Read: k, ReadTrans: st.Trans,
					Places: placesBetween(p, t, st.Proc, w, k),
				})
			}
		}
	}
	return out
}

// placesBetween returns the places between the write of process qi at step
// w and its read at step r: the place of the write itself, then, for every
// step of qi in w+1 .. r, the location it leaves and, for a write before r,
// that write's place; without repetitions, in order.
func placesBetween(p *model.Program, t *model.Trace, qi, w, r int) []Place {
	q := p.Procs[qi]
	places := []Place{AfterWrite(qi, t.Steps[w].Trans)}
	add := func(pl Place) {
		if !slices.Contains(places, pl) {
			places = append(places, pl)
		}
	}
	for m := w + 1; m <= r; m++ {
		st := t.Steps[m]
		if st.Proc != qi || st.Flush {
			continue
		}
		tr := q.Trans[st.Trans]
		add(AfterLoc(qi, tr.From))
		if m < r && tr.Op.Kind == model.Write {
			add(AfterWrite(qi, st.Trans))
		}
	}
	return places
}
