package coherence

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// event is a step of the abstract semantics: process proc takes
// transition trans, or (trans < 0) flushes the pending store pair from
// one of its buffers.
type event struct {
	proc, trans, pair int32
}

// pair returns the id of the pair (x, v), interning it.
func (s *search) pair(x int, v int64) int32 {
	k := pairKey{x, v}
	if id, ok := s.pairs[k]; ok {
		return id
	}
	id := int32(len(s.pairVar))
	s.pairs[k] = id
	s.pairVar = append(s.pairVar, x)
	s.pairVal = append(s.pairVal, v)
	return id
}

type pairKey struct {
	x int
	v int64
}

// drained reports whether every buffer of process i is empty.
func (s *search) drained(st *astate, i int) bool {
	lo, hi := s.chans(i)
	for c := lo; c < hi; c++ {
		if !st.ch[c].empty() {
			return false
		}
	}
	return true
}

// lastOf returns the newest pending store to x in c (FD and PD).
func (s *search) lastOf(c *channel, x int) (int32, bool) {
	for _, e := range c.last {
		if s.pairVar[e] == x {
			return e, true
		}
	}
	return -1, false
}

// setLast returns c.last with e as the newest pending store of its variable.
func (s *search) setLast(last []int32, e int32) []int32 {
	x := s.pairVar[e]
	out := make([]int32, 0, len(last)+1)
	placed := false
	for _, f := range last {
		switch y := s.pairVar[f]; {
		case y == x:
			continue
		case y > x && !placed:
			out = append(out, e)
			placed = true
		}
		out = append(out, f)
	}
	if !placed {
		out = append(out, e)
	}
	return out
}

// dropVar returns c without a newest store of x and without the pairs of
// x in its set: none of x's stores is pending any more.
func (s *search) dropVar(c channel, x int) channel {
	c.last = slices.DeleteFunc(slices.Clone(c.last), func(e int32) bool { return s.pairVar[e] == x })
	c.set = slices.DeleteFunc(slices.Clone(c.set), func(e int32) bool { return s.pairVar[e] == x })
	return c
}

// hasVar reports whether l holds a pair of x.
func (s *search) hasVar(l []int32, x int) bool {
	return slices.ContainsFunc(l, func(e int32) bool { return s.pairVar[e] == x })
}

// store returns c after a store of the pair e.
func (s *search) store(c channel, e int32) channel {
	switch {
	case s.abs.Kind == Set:
		c.set = insertSorted(c.set, e)
		return c
	case len(c.set) == 0 && len(c.head) < s.abs.K:
		c.head = append(slices.Clip(c.head), e)
	default:
		c.set = insertSorted(c.set, e)
	}
	c.last = s.setLast(c.last, e)
	return c
}

// yield receives a successor: the event, the state (nil for a fault) and
// the fault.
type yield func(ev event, ns *astate, fault *model.Fault)

// successors calls f for every abstract step enabled in st.
func (s *search) successors(st *astate, f yield) {
	for i := range s.p.Procs {
		lo, hi := s.flushable(i)
		for c := lo; c < hi; c++ {
			if !st.ch[c].empty() {
				s.flushes(st, i, c, f)
			}
		}
		for _, ti := range s.p.Procs[i].Out(st.locs[i]) {
			s.exec(st, i, ti, f)
		}
	}
}

// flushes yields the flushes of channel c of process i.
func (s *search) flushes(st *astate, i, c int, f yield) {
	ch := st.channel(c)
	emit := func(e int32, nc channel) {
		ns := *st // a flush that leaves the buffer as it is shares it
		if !sameChannel(&nc, st.ch[c]) {
			ns = st.withChannel(c, nc)
		}
		ns.mem = slices.Clone(st.mem)
		ns.mem[s.pairVar[e]] = s.pairVal[e]
		s.promote(&ns, i)
		f(event{int32(i), -1, e}, &ns, nil)
	}
	if s.abs.Kind == Set {
		for _, e := range ch.set {
			emit(e, ch) // another store of the same pair is left
			emit(e, channel{set: removeSorted(ch.set, e)})
		}
		return
	}
	if len(ch.head) > 0 {
		s.flushHead(ch, emit)
		return
	}
	if s.abs.Kind == FD {
		for _, e := range ch.set {
			emit(e, ch) // FLUSH-SN: another store of the pair is left
			x := s.pairVar[e]
			l, _ := s.lastOf(&ch, x)
			nc := ch
			nc.set = removeSorted(ch.set, e)
			if l == e {
				// FLUSH-SD of the newest store of x: the last of x, so
				// the only pair of x left.
				if s.hasVar(nc.set, x) {
					continue
				}
				nc.last = slices.DeleteFunc(slices.Clone(ch.last), func(f int32) bool { return f == e })
			}
			emit(e, nc)
		}
		return
	}
	// PD: FLUSH-NE leaves stores behind; FLUSH-E flushes the only one.
	for _, e := range ch.set {
		emit(e, ch)
		if l, _ := s.lastOf(&ch, s.pairVar[e]); l == e && len(ch.last) > 1 {
			// The newest store of x, leaving stores of other variables.
			emit(e, s.dropVar(ch, s.pairVar[e]))
		}
	}
	if len(ch.last) == 1 {
		emit(ch.last[0], channel{})
	}
}

// sameChannel reports whether nc has the very slices of c (a
// non-destructive flush).
func sameChannel(nc *channel, c *channel) bool {
	return c != nil && len(nc.head) == len(c.head) && len(nc.set) == len(c.set) && len(nc.last) == len(c.last) &&
		(len(nc.set) == 0 || &nc.set[0] == &c.set[0]) && (len(nc.head) == 0 || &nc.head[0] == &c.head[0]) &&
		(len(nc.last) == 0 || &nc.last[0] == &c.last[0])
}

// flushHead yields the flushes of the oldest store of a channel whose head
// is not empty (FLUSH-H): whether its variable keeps pending stores is
// known (FD) or split into the cases the set allows (PD).
func (s *search) flushHead(ch channel, emit func(int32, channel)) {
	e := ch.head[0]
	x := s.pairVar[e]
	nc := ch
	nc.head = ch.head[1:]
	if len(nc.head) == 0 {
		nc.head = nil
	}
	switch {
	case s.hasVar(nc.head, x):
		emit(e, nc)
	case s.abs.Kind == FD || len(nc.set) == 0:
		if !s.hasVar(nc.set, x) {
			nc = s.dropVar(nc, x)
		}
		emit(e, nc)
	default:
		// PD: the set may or may not hold a store of x.
		l, _ := s.lastOf(&nc, x)
		if slices.Contains(nc.set, l) {
			emit(e, nc)
		}
		if l == e && slices.ContainsFunc(nc.set, func(f int32) bool { return s.pairVar[f] != x }) {
			emit(e, s.dropVar(nc, x))
		}
	}
}

// exec yields the steps of transition ti of process i: a read of a
// variable with pending stores returns the newest (FD, PD) or any of
// them (Set); fences and locked operations wait for empty buffers.
func (s *search) exec(st *astate, i, ti int, f yield) {
	op := &s.p.Procs[i].Trans[ti].Op
	switch op.Kind {
	case model.Fence, model.Locked:
		if !s.drained(st, i) {
			return
		}
	case model.Read:
		ci := s.readChan(st, i, op.Var)
		if ci < 0 {
			break
		}
		c := st.ch[ci]
		if s.abs.Kind == Set {
			found := false
			for _, e := range c.set {
				if s.pairVar[e] == op.Var {
					found = true
					s.execWith(st, i, ti, op.Var, s.pairVal[e], f)
				}
			}
			if found {
				return
			}
		} else if e, ok := s.lastOf(c, op.Var); ok {
			s.execWith(st, i, ti, op.Var, s.pairVal[e], f)
			return
		}
	}
	s.execWith(st, i, ti, -1, 0, f)
}

// execWith executes transition ti of process i by the concrete semantics
// under SC on st's control, registers and memory, with x reading v when
// x >= 0; a write under a buffered model goes to its buffer instead of
// memory.
func (s *search) execWith(st *astate, i, ti, x int, v int64, f yield) {
	view := model.State{Locs: st.locs, Regs: st.regs, Mem: st.mem, Bufs: s.noBufs}
	if x >= 0 {
		view.Mem = slices.Clone(st.mem)
		view.Mem[x] = v
	}
	step, cs, err := s.p.Exec(view, i, ti, false, model.SC)
	if err != nil {
		return
	}
	ev := event{int32(i), int32(ti), -1}
	if cs.Fault != nil {
		f(ev, nil, cs.Fault)
		return
	}
	ns := astate{locs: cs.Locs, regs: cs.Regs, mem: st.mem, ch: st.ch, sealed: st.sealed}
	op := &s.p.Procs[i].Trans[ti].Op
	switch {
	case op.Kind == model.SSFence:
		s.seal(&ns, i)
	case op.Kind == model.Write && s.nch > 0:
		c := s.writeChan(st, i, step.Var)
		ns = ns.withChannel(c, s.store(st.channel(c), s.pair(step.Var, step.Val)))
	case op.Kind == model.Write || op.Kind == model.Locked:
		ns.mem = cs.Mem
	}
	f(ev, &ns, nil)
}

// isBad reports whether st is in a bad state of the program, which it
// checks on st as a concrete state: when a process has pending stores,
// every process gets a buffer of one placeholder entry (a condition on
// memory holds only once every buffer is empty).
func (s *search) isBad(st *astate) bool {
	view := model.State{Locs: st.locs, Regs: st.regs, Mem: st.mem, Bufs: s.noBufs}
	for i := range s.p.Procs {
		if !s.drained(st, i) {
			view.Bufs = s.someBufs
			break
		}
	}
	return s.p.MatchBad(view) >= 0
}
