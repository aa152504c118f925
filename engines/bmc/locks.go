package bmc

import (
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// This file is the lock lemma S2b of §7.1: for a variable used as a spin
// lock, critical sections do not overlap, stated directly as one
// constraint per pair of acquisitions instead of being derived from Π3.

// lockRole is the role of a transition for a lock variable.
type lockRole uint8

const (
	noRole  lockRole = iota
	acquire          // a compare-and-swap of x from free to a held value
	release          // a store of free to x (plain or atomic), reading nothing of x
	observe          // reads x and does not write it
)

// role returns what transition op does to x, whose free value is free, and
// false if it writes x in a way that is neither an acquisition nor a release.
func role(op model.Op, x int, free int64) (lockRole, bool) {
	switch model.LockRoleOf(op, x, free) {
	case model.LockObserve:
		return observe, true
	case model.LockAcquire:
		return acquire, true
	case model.LockRelease, model.LockStore:
		return release, true
	case model.LockOther:
		return noRole, false
	}
	return noRole, true
}

// lockLemmas asserts S2b for every lock variable: x starts free (a
// constant), every write of x is an acquisition (a locked compare-and-swap
// from free to another constant) or a release (a store of free that reads
// nothing of x), and on every path of every process acquisitions and
// releases alternate, starting with an acquisition. Then in every
// execution the writes of x reach memory as acquisition, release of the
// same process, acquisition, ..., so for two acquisitions A and A' of
// different processes the release that follows one in its process reaches
// memory before the other: rel(A) < A' or rel(A') < A. It returns the
// number of lemmas.
func (en *encoding) lockLemmas() int {
	n := 0
	for x, v := range en.p.Vars {
		if v.Init.Any {
			continue
		}
		free := v.Init.Value
		type acq struct {
			pr   *proc
			t    int
			rels []int
		}
		var acqs []acq
		ok := true
		for _, pr := range en.procs {
			roles := make([]lockRole, len(pr.q.Trans))
			for ti, t := range pr.q.Trans {
				r, good := role(t.Op, x, free)
				if !good {
					ok = false
					break
				}
				roles[ti] = r
			}
			if !ok {
				break
			}
			// Alternation: the holding state at every location.
			const unknown, free0, held, both = 0, 1, 2, 3
			state := make([]int, len(pr.q.Locs))
			state[pr.q.Init] = free0
			for _, l := range topo(pr.q) {
				s := state[l]
				if s == unknown {
					continue
				}
				for _, ti := range pr.q.Out(l) {
					next := s
					switch roles[ti] {
					case acquire:
						if s != free0 {
							ok = false
						}
						next = held
					case release:
						if s != held {
							ok = false
						}
						next = free0
					}
					to := pr.q.Trans[ti].To
					if state[to] != unknown && state[to] != next {
						ok = false
					}
					state[to] = next
				}
			}
			if !ok {
				break
			}
			for ti := range pr.q.Trans {
				if roles[ti] == acquire {
					rels := pr.firstEdges(pr.q.Trans[ti].To, func(t int) bool { return roles[t] == release })
					acqs = append(acqs, acq{pr, ti, rels})
				}
			}
		}
		if !ok {
			continue
		}
		if len(acqs) > 0 {
			en.isLock[x] = true
		}
		b := en.fb
		// relBefore: a release after a reaches memory before event time t.
		relBefore := func(a acq, t *smt.Expr) *smt.Expr {
			var alts []*smt.Expr
			for _, r := range a.rels {
				mem := a.pr.xt[r]
				if a.pr.fl[r] != nil {
					mem = a.pr.fl[r]
				}
				alts = append(alts, b.and(a.pr.e[r], b.z.Lt(mem, t)))
			}
			return b.or(alts...)
		}
		for i, a := range acqs {
			for _, c := range acqs[i+1:] {
				if a.pr == c.pr {
					continue
				}
				en.assert(b.implies(b.and(a.pr.e[a.t], c.pr.e[c.t]),
					b.or(relBefore(a, c.pr.xt[c.t]), relBefore(c, a.pr.xt[a.t]))))
				n++
			}
		}
	}
	return n
}
