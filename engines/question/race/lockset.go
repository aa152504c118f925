package race

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// This file is the static pruning of the second phase of Check: questions
// whose two accesses are both made while their processes hold one spin
// lock are answered "ordered" without asking an engine.
//
// A spin lock is a variable m with a constant initial value (free) that is
// written only by compare-and-swaps from free to another constant (locked
// operations whose first step reads m == free: an acquisition) and by
// locked stores of free that read nothing of m (a release), and on every
// path of every process acquisitions and releases alternate, starting with
// an acquisition, so that each location of a process either holds m or
// not. Then in every SC execution the writes of m come in the order
// acquisition, release (of the same process), acquisition, ..., and each
// acquisition reads the release before it: a locked store of m followed by
// a locked operation that observes m, which the Go memory model orders. So
// of two accesses made while holding m, the earlier happens before the
// later: its process releases m (or the other could not acquire it), and a
// chain of critical sections leads from that release to the later one's
// acquisition.

// lockRole is the role of a transition for a lock variable.
type lockRole uint8

const (
	noRole lockRole = iota
	acquire
	release
)

// roleOf returns what op does to m, whose free value is free, and false
// when it writes m in a way that is neither an acquisition nor a release
// (a plain store, a locked store of another value, a computed value).
func roleOf(op model.Op, m int, free int64) (lockRole, bool) {
	switch model.LockRoleOf(op, m, free) {
	case model.LockAcquire:
		return acquire, true
	case model.LockRelease:
		return release, true
	case model.LockStore, model.LockOther:
		return noRole, false
	}
	return noRole, true
}

// heldLocks returns, for every process and location of p, the spin locks
// (see above) held there.
func heldLocks(p *model.Program) [][][]int {
	held := make([][][]int, len(p.Procs))
	for qi, q := range p.Procs {
		held[qi] = make([][]int, len(q.Locs))
	}
	for m, v := range p.Vars {
		if v.Init.Any {
			continue
		}
		states, ok := lockStates(p, m, v.Init.Value)
		if !ok {
			continue
		}
		for qi := range p.Procs {
			for l, s := range states[qi] {
				if s == held1 {
					held[qi][l] = append(held[qi][l], m)
				}
			}
		}
	}
	return held
}

// Lock states of a location.
const (
	unknown uint8 = iota // unreachable
	free1
	held1
)

// lockStates returns whether each location of each process holds m, and
// false when m is no spin lock.
func lockStates(p *model.Program, m int, free int64) ([][]uint8, bool) {
	states := make([][]uint8, len(p.Procs))
	for qi, q := range p.Procs {
		roles := make([]lockRole, len(q.Trans))
		for ti, t := range q.Trans {
			r, ok := roleOf(t.Op, m, free)
			if !ok {
				return nil, false
			}
			roles[ti] = r
		}
		st := make([]uint8, len(q.Locs))
		st[q.Init] = free1
		work := []int{q.Init}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			for _, ti := range q.Out(l) {
				next := st[l]
				switch roles[ti] {
				case acquire:
					if st[l] != free1 {
						return nil, false
					}
					next = held1
				case release:
					if st[l] != held1 {
						return nil, false
					}
					next = free1
				}
				to := q.Trans[ti].To
				switch st[to] {
				case unknown:
					st[to] = next
					work = append(work, to)
				case next:
				default:
					return nil, false
				}
			}
		}
		states[qi] = st
	}
	return states, true
}

// statics is what the static pruning knows of a program: the spin locks
// held at each location, and the counted joins (join.go).
type statics struct {
	held  [][][]int
	joins []join
}

// staticsOf computes the statics of p.
func staticsOf(p *model.Program) statics { return statics{heldLocks(p), joins(p)} }

// ordered reports whether question ck is answered statically: every
// transition of its site is kept apart from ck's process at its location
// (see statics.apart), so each of its accesses is ordered with ck's.
func (in *instrumented) ordered(ck check, st statics) bool {
	c := in.sites[ck.c]
	for _, t := range c.trans {
		if !st.apart(model.ProcLoc{Proc: ck.q, Loc: ck.loc}, model.ProcLoc{Proc: c.proc, Loc: in.orig.Procs[c.proc].Trans[t].From}) {
			return false
		}
	}
	return true
}

// apart reports whether accesses made at a and at b, two locations of
// different processes, are ordered by the statics, so that the two
// processes are never at them at once: a counted join orders them (the
// process that waits has passed its wait only after the other has passed
// its decrement, and every location before it), or both hold one spin
// lock there.
func (st statics) apart(a, b model.ProcLoc) bool {
	for _, j := range st.joins {
		if j.separates(a, b) || j.separates(b, a) {
			return true
		}
	}
	if st.held == nil {
		return false
	}
	for _, m := range st.held[a.Proc][a.Loc] {
		if slices.Contains(st.held[b.Proc][b.Loc], m) {
			return true
		}
	}
	return false
}
