package extract

import (
	"math/bits"

	"github.com/fencecheck/fencecheck/model"
)

// resetDead says whether lowering resets dead registers; tests turn it off
// to compare.
var resetDead = true

// regSet is a set of registers of one process.
type regSet []uint64

func newRegSet(n int) regSet { return make(regSet, (n+63)/64) }

func (s regSet) has(r int) bool { return s[r/64]&(1<<(r%64)) != 0 }
func (s regSet) add(r int)      { s[r/64] |= 1 << (r % 64) }
func (s regSet) del(r int)      { s[r/64] &^= 1 << (r % 64) }

// union adds t to s and reports whether s grew.
func (s regSet) union(t regSet) bool {
	grew := false
	for i := range s {
		if n := s[i] | t[i]; n != s[i] {
			s[i], grew = n, true
		}
	}
	return grew
}

// each calls f on the members of s in increasing order.
func (s regSet) each(f func(int)) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(i*64 + b)
			w &^= 1 << b
		}
	}
}

// exprRegs adds to set the registers of the executing process that e reads.
func exprRegs(e model.Expr, set regSet) {
	model.WalkExpr(e, func(e model.Expr) {
		if r, ok := e.(model.RegRef); ok && r.Proc < 0 {
			set.add(r.Reg)
		}
	})
}

// liveBefore returns the registers live before op, given those live after:
// the registers op reads, and those live after that op does not assign.
// Every assignment reads its expression, whether or not its target is live,
// since evaluating it may fault.
func liveBefore(op model.Op, after regSet) regSet {
	live := append(regSet(nil), after...)
	var step func(o model.Op)
	step = func(o model.Op) {
		switch o.Kind {
		case model.Assign:
			live.del(o.Reg)
			exprRegs(o.Expr, live)
		case model.Read:
			if o.Reg >= 0 {
				live.del(o.Reg)
			}
			exprRegs(o.Expr, live)
		case model.Guard, model.Write:
			exprRegs(o.Expr, live)
		case model.Locked:
			for i := len(o.Body) - 1; i >= 0; i-- {
				step(o.Body[i])
			}
		}
	}
	step(op)
	return live
}

// liveRegs returns, for each location of process pi of p, the registers
// that some path from it reads before assigning them: in a guard, an
// assignment, a read's expected value, a write, or the condition of a bad
// state. A bad state reads its registers of process pi at its location of
// pi, or everywhere if it places pi nowhere.
func liveRegs(p *model.Program, pi int) []regSet {
	q := p.Procs[pi]
	n := len(q.Regs)
	live := make([]regSet, len(q.Locs))
	for l := range live {
		live[l] = newRegSet(n)
	}
	everywhere := newRegSet(n)
	for _, b := range p.Bad {
		used := newRegSet(n)
		model.WalkExpr(b.Cond, func(e model.Expr) {
			if r, ok := e.(model.RegRef); ok && r.Proc == pi {
				used.add(r.Reg)
			}
		})
		placed := false
		for _, pl := range b.Locs {
			if pl.Proc == pi {
				live[pl.Loc].union(used)
				placed = true
			}
		}
		if !placed {
			everywhere.union(used)
		}
	}
	for l := range live {
		live[l].union(everywhere)
	}
	for changed := true; changed; {
		changed = false
		for i := len(q.Trans) - 1; i >= 0; i-- {
			t := &q.Trans[i]
			if live[t.From].union(liveBefore(t.Op, live[t.To])) {
				changed = true
			}
		}
	}
	return live
}

// canonical is the value a dead register of q is reset to: its initial
// value, or the low end of its domain when that is not a constant of it.
func canonical(r model.Reg) int64 {
	if !r.Init.Any && r.Dom.Contains(r.Init.Value) {
		return r.Init.Value
	}
	if r.Dom.Unbounded {
		return 0
	}
	return r.Dom.Lo
}

// resetDeadRegs sets every register whose value is dead to its canonical
// value, so that states that differ only in dead values are the same state.
// It adds neither locations nor transitions: a register that dies on a
// transition is reset by it if it is a nop (one register, which becomes an
// assignment) or a locked block (any number, appended to its body, after
// every memory access), and a read whose value is dead and cannot fault
// keeps it no more. The reduction is exact: a dead value influences no
// guard, write, assignment or bad state.
func resetDeadRegs(p *model.Program) {
	for pi := range p.Procs {
		resetDeadProc(p, pi)
	}
}

func resetDeadProc(p *model.Program, pi int) {
	q := p.Procs[pi]
	n := len(q.Regs)
	if n == 0 {
		return
	}
	live := liveRegs(p, pi)
	canon := make([]int64, n)
	for r, reg := range q.Regs {
		canon[r] = canonical(reg)
	}
	// dropRead reports whether the register a read of transition t assigns
	// is dead after it and the read cannot fault by leaving its domain.
	dropRead := func(t *model.Transition) bool {
		o := t.Op
		if o.Kind != model.Read || o.Reg < 0 || live[t.To].has(o.Reg) {
			return false
		}
		vd, rd := p.Vars[o.Var].Dom, q.Regs[o.Reg].Dom
		return rd.Unbounded || !vd.Unbounded && rd.Lo <= vd.Lo && vd.Hi <= rd.Hi
	}
	// after returns the registers that may hold a value other than their
	// canonical one after transition t (given those before it), before and
	// after its resets, and the resets t makes.
	after := func(t *model.Transition, before regSet) (out regSet, resets []int) {
		out = append(regSet(nil), before...)
		var step func(o model.Op)
		step = func(o model.Op) {
			switch o.Kind {
			case model.Assign:
				if c, ok := o.Expr.(model.Const); ok && c.Value == canon[o.Reg] {
					out.del(o.Reg)
				} else {
					out.add(o.Reg)
				}
			case model.Read:
				if o.Reg >= 0 {
					out.add(o.Reg)
				}
			case model.Locked:
				for _, b := range o.Body {
					step(b)
				}
			}
		}
		if !dropRead(t) {
			step(t.Op)
		}
		out.each(func(r int) {
			if live[t.To].has(r) {
				return
			}
			switch {
			case t.Op.Kind == model.Locked, t.Op.Kind == model.Nop && len(resets) == 0:
				resets = append(resets, r)
			}
		})
		for _, r := range resets {
			out.del(r)
		}
		return out, resets
	}
	// The registers that may be away from their canonical value at each
	// location, to a fixpoint.
	dirty := make([]regSet, len(q.Locs))
	for l := range dirty {
		dirty[l] = newRegSet(n)
	}
	for r, reg := range q.Regs {
		if reg.Init.Any || reg.Init.Value != canon[r] {
			dirty[q.Init].add(r)
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range q.Trans {
			t := &q.Trans[i]
			out, _ := after(t, dirty[t.From])
			if dirty[t.To].union(out) {
				changed = true
			}
		}
	}
	for i := range q.Trans {
		t := &q.Trans[i]
		_, resets := after(t, dirty[t.From])
		if dropRead(t) {
			t.Op.Reg = -1
		}
		switch t.Op.Kind {
		case model.Nop:
			if len(resets) == 1 {
				t.Op = model.AssignOp(resets[0], model.C(canon[resets[0]]))
			}
		case model.Locked:
			body := append([]model.Op(nil), t.Op.Body...)
			for _, r := range resets {
				body = append(body, model.AssignOp(r, model.C(canon[r])))
			}
			t.Op.Body = body
		}
	}
}
