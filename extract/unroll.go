package extract

import (
	"hash/maphash"
	"slices"
)

// Loops that the program bounds, run as the program runs them.
//
// The register analysis (analyse) keeps one abstract value per register
// and location: at a loop head it joins every iteration's registers, and
// loses how they go together. An accumulator (s += 0.1, t += i, t += 7
// in a loop of three iterations) then grows with each join until it is
// widened to top, though the program computes four values. unroll runs a
// process's registers as the program does instead: a state is a location
// and every register's abstract value, the registers computed by the same
// steps as analyse's, from the variables the inference settled (every
// value any process may store, under any memory model, so that every load
// is covered), and a state seen before at its location is not stepped
// again. A loop whose counter the program bounds (through a constant, a
// parameter, a call, len) then runs as many times as it can, and its
// accumulators take the values it computes; a loop whose registers take
// new values without end exceeds the budget, and the process keeps what
// analyse found. The registers unroll finds at a location are those of
// some state there, so they lie below analyse's: the inference only gains
// precision.

// unrollStates bounds the states unroll visits for one process, on top of
// two per location; unrollCells bounds the registers those states hold in
// all.
const (
	unrollStates = 1 << 13
	unrollCells  = 1 << 22
)

// unrollState is a location and the registers of a state of unroll.
type unrollState struct {
	loc  int
	regs []abs
}

// needsUnroll reports whether some register of states, analyse's result,
// holds values the inference cannot enumerate.
func needsUnroll(states [][]abs) bool {
	for _, st := range states {
		for _, a := range st {
			if _, ok := a.values(); !ok {
				return true
			}
		}
	}
	return false
}

// unroll runs p's registers state by state against vars (see above) and
// returns the join of the registers of the states at each location (nil
// where none is reached), or false when the states exceed the budget.
func (p *proc) unroll(vars []abs) ([][]abs, bool) {
	q := p.q
	budget := unrollStates + 2*len(q.Locs)
	if len(q.Regs) > 0 {
		budget = min(budget, unrollCells/len(q.Regs))
	}
	seed := maphash.MakeSeed()
	seen := map[uint64][]int{}
	var all []unrollState
	add := func(loc int, regs []abs) bool {
		h := hashState(seed, loc, regs)
		for _, i := range seen[h] {
			if all[i].loc == loc && equalRegs(all[i].regs, regs) {
				return true
			}
		}
		if len(all) >= budget {
			return false
		}
		seen[h] = append(seen[h], len(all))
		all = append(all, unrollState{loc: loc, regs: slices.Clone(regs)})
		return true
	}
	init := make([]abs, len(q.Regs))
	for r := range init {
		init[r] = single(q.Regs[r].Init.Value)
	}
	add(q.Init, init)
	env := &absEnv{regs: make([]abs, len(q.Regs)), vars: vars}
	noWrite := func(int, abs) {}
	for next := 0; next < len(all); next++ {
		st := all[next]
		env.load(st.regs)
		for _, ti := range q.Out(st.loc) {
			t := q.Trans[ti]
			env.resetTo(st.regs)
			if !p.step(env, t.Op, noWrite) {
				continue
			}
			if !add(t.To, env.regs) {
				return nil, false
			}
		}
	}
	states := make([][]abs, len(q.Locs))
	for _, st := range all {
		if states[st.loc] == nil {
			states[st.loc] = slices.Clone(st.regs)
			continue
		}
		for r, a := range st.regs {
			states[st.loc][r] = join(states[st.loc][r], a)
		}
	}
	return states, true
}

// hashState hashes a location and its registers.
func hashState(seed maphash.Seed, loc int, regs []abs) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	word := func(v int64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	word(int64(loc))
	for _, a := range regs {
		switch {
		case a.top:
			word(-1)
		case a.ival:
			word(-2)
			word(a.lo)
			word(a.hi)
		default:
			word(int64(len(a.set)))
			for _, v := range a.set {
				word(v)
			}
		}
	}
	return h.Sum64()
}

// equalRegs reports whether two register vectors are equal.
func equalRegs(a, b []abs) bool {
	for r := range a {
		if !a[r].equal(b[r]) {
			return false
		}
	}
	return true
}

// unrollProcs replaces, for each process whose registers analyse leaves
// unenumerable, its states by unroll's when unroll stays in its budget.
func (s *system) unrollProcs(states [][][]abs, vars []abs) {
	for pi, p := range s.procs {
		if states[pi] == nil || !needsUnroll(states[pi]) {
			continue
		}
		if st, ok := p.unroll(vars); ok {
			states[pi] = st
		}
	}
}
