package sb

import "github.com/fencecheck/fencecheck/model"

// Partial-order reduction of the SB search (the argument is in the package
// doc, "Partial-order reduction"): a constraint with a process p at a
// location other than its initial one that only local steps enter (the
// constraint not in transit) is expanded by p's steps into that location
// and by the flushes the constraint allows, not by the other processes'
// steps.

// localEntries returns, per process of p and location, whether the
// location is not the process's initial one and every transition into it
// is a local step: a nop, an assignment or a guard that names no shared
// variable.
func localEntries(p *model.Program) [][]bool {
	out := make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		local := make([]bool, len(q.Locs))
		for l := range local {
			local[l] = l != q.Init
		}
		for _, t := range q.Trans {
			if !isLocal(t.Op) {
				local[t.To] = false
			}
		}
		out[i] = local
	}
	return out
}

// isLocal reports whether op reads and writes only its process's
// registers.
func isLocal(op model.Op) bool {
	switch op.Kind {
	case model.Nop:
		return true
	case model.Assign, model.Guard:
		shared := false
		varsOf(op.Expr, func(int) { shared = true })
		return !shared
	}
	return false
}

// reduced returns the process whose steps alone (with the flushes c
// allows) expand c, or -1 when c is expanded by every process: of the
// processes at a location that only local steps enter, the one with the
// fewest transitions into its location.
func (s *search) reduced(c *cons) int {
	if s.localIn == nil || c.transit >= 0 {
		return -1
	}
	best := -1
	for p, l := range c.locs {
		if l == wild || !s.localIn[p][l] {
			continue
		}
		if best < 0 || len(s.in[p][l]) < len(s.in[best][c.locs[best]]) {
			best = p
		}
	}
	return best
}
