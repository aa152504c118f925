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
		out[i] = deadIn(p, i, q)
	}
	return out
}

// deadIn is [Dead] for process i, q: the least solution of live(from) ⊇
// use(t) ∪ (live(to) \ def(t)) over its transitions t, from the pinned
// registers, by a worklist of locations whose liveness grew, on bit sets.
func deadIn(p *model.Program, i int, q *model.Process) [][]int {
	n := len(q.Regs)
	words := (n + 63) / 64
	set := func(b []uint64, r int) { b[r/64] |= 1 << (r % 64) }
	pinned := make([]uint64, words)
	for _, b := range p.Bad {
		model.WalkExpr(b.Cond, func(e model.Expr) {
			if r, ok := e.(model.RegRef); ok && r.Proc == i && r.Reg >= 0 && r.Reg < n {
				set(pinned, r.Reg)
			}
		})
	}
	use := make([][]uint64, len(q.Trans))
	def := make([][]uint64, len(q.Trans))
	into := make([][]int, len(q.Locs))
	for ti, t := range q.Trans {
		u, d := make([]bool, n), make([]bool, n)
		useDef(t.Op, u, d)
		use[ti], def[ti] = make([]uint64, words), make([]uint64, words)
		for r := range n {
			if u[r] {
				set(use[ti], r)
			}
			if d[r] {
				set(def[ti], r)
			}
		}
		into[t.To] = append(into[t.To], ti)
	}
	live := make([][]uint64, len(q.Locs))
	queued := make([]bool, len(q.Locs))
	work := make([]int, 0, len(q.Locs))
	for l := range live {
		live[l] = slices.Clone(pinned)
		work = append(work, l)
		queued[l] = true
	}
	for len(work) > 0 {
		to := work[len(work)-1]
		work = work[:len(work)-1]
		queued[to] = false
		for _, ti := range into[to] {
			from := q.Trans[ti].From
			grew := false
			for w := range words {
				v := live[from][w] | use[ti][w] | live[to][w]&^def[ti][w]
				if v != live[from][w] {
					live[from][w], grew = v, true
				}
			}
			if grew && !queued[from] {
				work = append(work, from)
				queued[from] = true
			}
		}
	}
	out := make([][]int, len(q.Locs))
	for l := range live {
		for r := range n {
			if live[l][r/64]&(1<<(r%64)) == 0 {
				out[l] = append(out[l], r)
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
