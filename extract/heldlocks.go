package extract

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Unlocks of held mutexes.
//
// Every Unlock of a sync.Mutex (and every Cond's Wait) has a step to Go's
// fatal error "sync: unlock of unlocked mutex", taken when the mutex is
// not locked. Most programs unlock only what they locked: when every
// unlock of a mutex, in every process, follows on every path a lock of it
// by the same process with no unlock between (the process holds it), no
// run takes any of those steps, since a mutex is unlocked only by the
// process that holds it. Those steps are dropped, so that the analyses do
// not carry a bad state no run reaches; a mutex that one process may
// unlock without holding it (a lock handed to another goroutine, a double
// unlock) keeps them all.

// unlockFatal is Go's fatal error of an Unlock of an unlocked mutex.
const unlockFatal = "fatal error: sync: unlock of unlocked mutex"

// dropHeldUnlockFaults removes the fatal steps of the unlocks of mutexes
// that are only unlocked by the processes that hold them.
func (s *system) dropHeldUnlockFaults() {
	type fatalStep struct {
		p     *proc
		trans int
		site  int
	}
	steps := map[int][]fatalStep{} // by mutex variable
	for _, p := range s.procs {
		if !slices.ContainsFunc(p.panics, func(site panicSite) bool { return site.name == unlockFatal }) {
			continue
		}
		into := map[int][]int{} // location -> the transitions into it
		for ti, t := range p.q.Trans {
			into[t.To] = append(into[t.To], ti)
		}
		for si, site := range p.panics {
			if site.name != unlockFatal {
				continue
			}
			for _, ti := range into[site.loc] {
				op := p.q.Trans[ti].Op
				if op.Kind == model.Locked && len(op.Body) == 2 && op.Body[1].Kind == model.Read {
					steps[op.Body[1].Var] = append(steps[op.Body[1].Var], fatalStep{p, ti, si})
				}
			}
		}
	}
	drop := map[*proc]map[int]bool{} // process -> panic sites to drop
	gone := map[*proc]map[int]bool{} // process -> fatal steps to remove
	for x, fs := range steps {
		held := map[*proc][]bool{}
		clean := true
		for _, f := range fs {
			if held[f.p] == nil {
				held[f.p] = mutexHeld(f.p.q, x)
			}
			if !held[f.p][f.p.q.Trans[f.trans].From] {
				clean = false
				break
			}
		}
		if !clean {
			continue
		}
		for _, f := range fs {
			// The unlock beside it need not check that the mutex is
			// locked either: it is.
			from := f.p.q.Trans[f.trans].From
			for ti, t := range f.p.q.Trans {
				if b := t.Op.Body; t.From == from && t.Op.Kind == model.Locked && len(b) > 1 &&
					b[0].Kind == model.Read && b[0].Var == x && b[0].Reg < 0 && b[0].Expr == model.Expr(model.C(1)) {
					f.p.q.Trans[ti].Op.Body = b[1:]
				}
			}
			if drop[f.p] == nil {
				drop[f.p] = map[int]bool{}
				gone[f.p] = map[int]bool{}
			}
			drop[f.p][f.site] = true
			gone[f.p][f.trans] = true
		}
	}
	for p, trans := range gone {
		var origins []Origin
		for _, i := range p.q.Retain(func(i int) bool { return !trans[i] }) {
			origins = append(origins, p.origins[i])
		}
		p.origins = origins
	}
	for p, sites := range drop {
		var keep []panicSite
		for si, site := range p.panics {
			if !sites[si] {
				keep = append(keep, site)
			}
		}
		p.panics = keep
	}
}

// mutexHeld returns, for each location of q, whether q holds the mutex
// variable x there on every path from its initial location: its last
// locked step that writes x wrote 1 (a Lock, a successful TryLock, a
// Cond's Wait taking it back), not 0 (an Unlock, a Wait releasing it).
func mutexHeld(q *model.Process, x int) []bool {
	held := make([]bool, len(q.Locs))
	for l := range held {
		held[l] = true
	}
	held[q.Init] = false
	for changed := true; changed; {
		changed = false
		for _, t := range q.Trans {
			h := held[t.From]
			if t.Op.Kind == model.Locked {
				for _, b := range t.Op.Body {
					if b.Kind != model.Write || b.Var != x {
						continue
					}
					if c, ok := b.Expr.(model.Const); ok {
						h = c.Value == 1
					} else {
						h = false
					}
				}
			} else if writesVar(t.Op, x) {
				h = false
			}
			if held[t.To] && !h {
				held[t.To] = false
				changed = true
			}
		}
	}
	return held
}

// writesVar reports whether op writes the variable x.
func writesVar(op model.Op, x int) bool {
	if op.Var == x && op.Kind == model.Write {
		return true
	}
	for _, b := range op.Body {
		if writesVar(b, x) {
			return true
		}
	}
	return false
}
