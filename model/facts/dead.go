package facts

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Dead returns, for every process of p and every location, the registers
// that are dead there: on no path from the location is the register read
// before it is assigned. Registers named by a bad-state condition are live
// everywhere. Two states that differ only in the values of dead registers
// have the same futures, so a search may reset dead registers (see
// [CanonicalRegs]) and merge such states without losing a bad state; the
// steps it records are the same, so its traces replay on p.
func Dead(p *model.Program) [][][]int {
	out := make([][][]int, len(p.Procs))
	for i, q := range p.Procs {
		n := len(q.Regs)
		pinned := make([]bool, n)
		for _, b := range p.Bad {
			model.WalkExpr(b.Cond, func(e model.Expr) {
				if r, ok := e.(model.RegRef); ok && r.Proc == i && r.Reg >= 0 && r.Reg < n {
					pinned[r.Reg] = true
				}
			})
		}
		use := make([][]bool, len(q.Trans))
		def := make([][]bool, len(q.Trans))
		for ti, t := range q.Trans {
			use[ti], def[ti] = make([]bool, n), make([]bool, n)
			useDef(t.Op, use[ti], def[ti])
		}
		live := make([][]bool, len(q.Locs))
		for l := range live {
			live[l] = slices.Clone(pinned)
		}
		for changed := true; changed; {
			changed = false
			for ti, t := range q.Trans {
				for r := range n {
					if live[t.From][r] {
						continue
					}
					if use[ti][r] || (live[t.To][r] && !def[ti][r]) {
						live[t.From][r], changed = true, true
					}
				}
			}
		}
		out[i] = make([][]int, len(q.Locs))
		for l := range live {
			for r := range n {
				if !live[l][r] {
					out[i][l] = append(out[i][l], r)
				}
			}
		}
	}
	return out
}

// useDef marks the registers o reads before it assigns them (use) and the
// ones it assigns whenever it is taken (def).
func useDef(o model.Op, use, def []bool) {
	uses := func(e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			if r, ok := e.(model.RegRef); ok && r.Proc < 0 && r.Reg >= 0 && r.Reg < len(use) && !def[r.Reg] {
				use[r.Reg] = true
			}
		})
	}
	switch o.Kind {
	case model.Assign:
		uses(o.Expr)
		def[o.Reg] = true
	case model.Guard:
		uses(o.Expr)
	case model.Read:
		uses(o.Expr)
		if o.Reg >= 0 {
			def[o.Reg] = true
		}
	case model.Write:
		uses(o.Expr)
	case model.Locked:
		for _, b := range o.Body {
			useDef(b, use, def)
		}
	}
}

// CanonicalRegs returns s with the dead registers of every process (dead,
// from [Dead]) set to 0, sharing what it does not change.
func CanonicalRegs(s model.State, dead [][][]int) model.State {
	return CanonicalRegsIn(s, dead, nil)
}

// CanonicalRegsIn is [CanonicalRegs] with the arrays it copies taken from
// a (see [model.Arena]; nil: the heap).
func CanonicalRegsIn(s model.State, dead [][][]int, a *model.Arena) model.State {
	cloned := false
	for i, l := range s.Locs {
		if l < 0 || l >= len(dead[i]) {
			continue
		}
		own := false
		for _, r := range dead[i][l] {
			if s.Regs[i][r] == 0 {
				continue
			}
			if !cloned {
				s.Regs = a.CloneRows(s.Regs)
				cloned = true
			}
			if !own {
				s.Regs[i] = a.CloneVals(s.Regs[i])
				own = true
			}
			s.Regs[i][r] = 0
		}
	}
	return s
}
