package pred

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
)

// Counters that wrap. A register or variable with an unbounded domain whose
// every value is wrapped to one integer type (x := uint32(x + 1)) needs, for
// the predicates of its invariant, modular arithmetic at every update: with
// it, a ticket lock's invariant "the tickets held are serving and serving+1"
// becomes a chain of remainders that refinement does not converge on. Yet a
// wrap commutes with addition, subtraction and multiplication: the analysis
// may keep any integer congruent to the value modulo 2^bits (here: the
// mathematical sum, never reduced) and reduce it only where the program looks
// at the value (a comparison, a division, a wider wrap, a value that leaves
// for an entity that is not lazy). The invariant is then linear again
// (serving ≤ ticket < next), and an equality of two such values becomes
// "their difference is a multiple of 2^bits". The analysis is exact: the
// lazy program's value of such an entity is congruent to the program's, and
// every observation reduces it first.
//
// An entity is lazy for a kind when its domain is unbounded and its initial
// value of the kind's range, when every value assigned to it is a wrap to the
// kind, a constant of its range or a copy of a lazy entity of the kind, when
// every register read from a lazy variable is lazy and every variable a lazy
// register is read from is lazy (a read copies the value unreduced), and
// when no read compares the variable with an expected value (a
// compare-and-swap compares the reduced values): a greatest fixpoint.

// lazyInfo is which kind (an index into kinds), if any, each variable and
// register is lazy for.
type lazyInfo struct {
	kinds []wrapKind
	vars  []int
	regs  [][]int
}

func (l *lazyInfo) reg(e model.RegRef, q int) int {
	p := e.Proc
	if p < 0 {
		p = q
	}
	if p < 0 || p >= len(l.regs) || e.Reg < 0 || e.Reg >= len(l.regs[p]) {
		return -1
	}
	return l.regs[p][e.Reg]
}

func (l *lazyInfo) of(e model.Expr, q int) int {
	switch e := e.(type) {
	case model.RegRef:
		return l.reg(e, q)
	case model.VarRef:
		if e.Var >= 0 && e.Var < len(l.vars) {
			return l.vars[e.Var]
		}
	}
	return -1
}

// findLazy computes the lazy entities of p.
func findLazy(p *model.Program) *lazyInfo {
	l := &lazyInfo{vars: make([]int, len(p.Vars)), regs: make([][]int, len(p.Procs))}
	for x := range l.vars {
		l.vars[x] = -1
	}
	for qi, q := range p.Procs {
		l.regs[qi] = make([]int, len(q.Regs))
		for r := range l.regs[qi] {
			l.regs[qi][r] = -1
		}
	}
	// The kinds, and the variables a read compares with a value.
	seen := map[wrapKind]bool{}
	compared := make([]bool, len(p.Vars))
	var scan func(o model.Op)
	scan = func(o model.Op) {
		model.WalkExpr(o.Expr, func(e model.Expr) {
			if w, ok := e.(model.Wrap); ok && !seen[wrapKind{w.Bits, w.Signed}] {
				seen[wrapKind{w.Bits, w.Signed}] = true
				l.kinds = append(l.kinds, wrapKind{w.Bits, w.Signed})
			}
		})
		if o.Kind == model.Read && o.Expr != nil {
			compared[o.Var] = true
		}
		for _, b := range o.Body {
			scan(b)
		}
	}
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			scan(t.Op)
		}
	}
	for ki, k := range l.kinds {
		l.fixpoint(p, ki, k, compared)
	}
	return l
}

// fixpoint finds the entities lazy for kind ki among those not lazy for
// another kind.
func (l *lazyInfo) fixpoint(p *model.Program, ki int, k wrapKind, compared []bool) {
	inRange := func(in model.Init, d model.Domain) bool {
		return d.Unbounded && !in.Any && k.contains(in.Value, in.Value)
	}
	vars := make([]bool, len(p.Vars))
	regs := make([][]bool, len(p.Procs))
	for x, v := range p.Vars {
		vars[x] = l.vars[x] < 0 && !compared[x] && inRange(v.Init, v.Dom)
	}
	for qi, q := range p.Procs {
		regs[qi] = make([]bool, len(q.Regs))
		for r, reg := range q.Regs {
			regs[qi][r] = l.regs[qi][r] < 0 && inRange(reg.Init, reg.Dom)
		}
	}
	for {
		changed := false
		drop := func(b *bool) {
			if *b {
				*b, changed = false, true
			}
		}
		useful := make([]bool, len(p.Vars))
		usefulReg := make([][]bool, len(p.Procs))
		for qi := range usefulReg {
			usefulReg[qi] = make([]bool, len(regs[qi]))
		}
		// compat reports whether assigning e keeps an entity lazy, and
		// whether it makes laziness worth it (a wrap or a lazy copy).
		compat := func(e model.Expr, qi int) (ok, worth bool) {
			switch e := e.(type) {
			case model.Wrap:
				return e.Bits == k.bits && e.Signed == k.signed, true
			case model.Const:
				return k.contains(e.Value, e.Value), false
			case model.RegRef:
				if e.Proc < 0 && regs[qi][e.Reg] {
					return true, true
				}
			case model.VarRef:
				if vars[e.Var] {
					return true, true
				}
			}
			return false, false
		}
		var visit func(qi int, o model.Op)
		visit = func(qi int, o model.Op) {
			switch o.Kind {
			case model.Assign:
				ok, worth := compat(o.Expr, qi)
				if !ok {
					drop(&regs[qi][o.Reg])
				}
				usefulReg[qi][o.Reg] = usefulReg[qi][o.Reg] || worth
			case model.Write:
				ok, worth := compat(o.Expr, qi)
				if !ok {
					drop(&vars[o.Var])
				}
				useful[o.Var] = useful[o.Var] || worth
			case model.Read:
				if o.Reg >= 0 {
					if !vars[o.Var] {
						drop(&regs[qi][o.Reg])
					}
					if !regs[qi][o.Reg] {
						drop(&vars[o.Var])
					}
					usefulReg[qi][o.Reg] = true
				}
			case model.Locked:
				for _, b := range o.Body {
					visit(qi, b)
				}
			}
		}
		for qi, q := range p.Procs {
			for _, t := range q.Trans {
				visit(qi, t.Op)
			}
		}
		if changed {
			continue
		}
		// Entities that only ever get constants gain nothing.
		for x := range vars {
			if !useful[x] {
				drop(&vars[x])
			}
		}
		for qi := range regs {
			for r := range regs[qi] {
				if !usefulReg[qi][r] {
					drop(&regs[qi][r])
				}
			}
		}
		if !changed {
			break
		}
	}
	for x, ok := range vars {
		if ok {
			l.vars[x] = ki
		}
	}
	for qi := range regs {
		for r, ok := range regs[qi] {
			if ok {
				l.regs[qi][r] = ki
			}
		}
	}
}

// canon returns e, evaluated by process q (-1 in a bad-state condition),
// with the values of lazy entities reduced: the value the program computes.
func (l *lazyInfo) canon(e model.Expr, q int) model.Expr {
	switch x := e.(type) {
	case model.RegRef, model.VarRef:
		if ki := l.of(e, q); ki >= 0 {
			k := l.kinds[ki]
			return model.Wrap{X: e, Bits: k.bits, Signed: k.signed}
		}
		return e
	case model.Wrap:
		return model.Wrap{X: l.lazy(x.X, q, x.Bits), Bits: x.Bits, Signed: x.Signed}
	case model.Unary:
		return model.Unary{Op: x.Op, X: l.canon(x.X, q)}
	case model.Binary:
		cx, cy := l.canon(x.X, q), l.canon(x.Y, q)
		if x.Op == model.OpEq || x.Op == model.OpNe {
			// Two values of one kind are equal when their lazy values
			// differ by a multiple of the modulus.
			if a, b, k, ok := sameKind(cx, cy); ok {
				diff := model.Bin(model.OpSub, a, b)
				return model.Bin(x.Op, model.Bin(model.OpMod, diff, model.C(int64(1)<<k.bits)), model.C(0))
			}
		}
		return model.Binary{Op: x.Op, X: cx, Y: cy}
	}
	return e
}

// sameKind reports whether x and y are wraps to one kind, or one is and the
// other a constant of its range, and returns their arguments.
func sameKind(x, y model.Expr) (a, b model.Expr, k wrapKind, ok bool) {
	wx, okx := x.(model.Wrap)
	wy, oky := y.(model.Wrap)
	cx, isCx := x.(model.Const)
	cy, isCy := y.(model.Const)
	switch {
	case okx && oky && wx.Bits == wy.Bits && wx.Signed == wy.Signed:
		return wx.X, wy.X, wrapKind{wx.Bits, wx.Signed}, true
	case okx && isCy && (wrapKind{wx.Bits, wx.Signed}).contains(cy.Value, cy.Value):
		return wx.X, cy, wrapKind{wx.Bits, wx.Signed}, true
	case oky && isCx && (wrapKind{wy.Bits, wy.Signed}).contains(cx.Value, cx.Value):
		return cx, wy.X, wrapKind{wy.Bits, wy.Signed}, true
	}
	return nil, nil, wrapKind{}, false
}

// lazy returns an expression congruent to e modulo 2^bits: the lazy values
// of entities lazy for a kind at least as wide, through additions,
// subtractions, multiplications, negations and wraps at least as wide.
func (l *lazyInfo) lazy(e model.Expr, q int, bits uint8) model.Expr {
	switch x := e.(type) {
	case model.RegRef, model.VarRef:
		if ki := l.of(e, q); ki >= 0 && l.kinds[ki].bits >= bits {
			return e
		}
		return l.canon(e, q)
	case model.Wrap:
		if x.Bits >= bits {
			return l.lazy(x.X, q, bits)
		}
		return l.canon(e, q)
	case model.Unary:
		if x.Op == model.OpNeg {
			return model.Unary{Op: x.Op, X: l.lazy(x.X, q, bits)}
		}
	case model.Binary:
		switch x.Op {
		case model.OpAdd, model.OpSub, model.OpMul:
			return model.Binary{Op: x.Op, X: l.lazy(x.X, q, bits), Y: l.lazy(x.Y, q, bits)}
		}
	}
	return l.canon(e, q)
}

// assigned returns the expression to assign to an entity of kind ki (-1:
// not lazy) instead of e, evaluated by process q.
func (l *lazyInfo) assigned(e model.Expr, q, ki int) model.Expr {
	if ki < 0 {
		return l.canon(e, q)
	}
	switch x := e.(type) {
	case model.Wrap:
		return l.lazy(x.X, q, x.Bits)
	case model.RegRef, model.VarRef:
		if l.of(e, q) == ki {
			return e
		}
	}
	return l.canon(e, q)
}

// lazyWraps returns p, or, when p has lazy entities, the lazy program: the
// same automata, with the values of lazy entities unreduced and every
// observation of them reduced.
func lazyWraps(p *model.Program) (*model.Program, bool) {
	l := findLazy(p)
	any := false
	for _, k := range l.vars {
		any = any || k >= 0
	}
	for _, rs := range l.regs {
		for _, k := range rs {
			any = any || k >= 0
		}
	}
	if !any {
		return p, false
	}
	c := p.Clone()
	forOps(c, func(q int, o *model.Op) {
		switch o.Kind {
		case model.Assign:
			o.Expr = l.assigned(o.Expr, q, l.regs[q][o.Reg])
		case model.Write:
			o.Expr = l.assigned(o.Expr, q, l.vars[o.Var])
		default:
			if o.Expr != nil {
				o.Expr = l.canon(o.Expr, q)
			}
		}
	}, func(e model.Expr) model.Expr { return l.canon(e, -1) })
	c.Index()
	return c, true
}

// retrace returns t, a trace of the lazy program of p, as a trace of p: the
// same steps from the same initial state, with the values p's semantics
// gives them.
func retrace(p *model.Program, t *model.Trace) (*model.Trace, error) {
	states, err := p.Execute(&model.Trace{Model: t.Model, InitMem: t.InitMem, InitRegs: t.InitRegs})
	if err != nil || len(states) != 1 {
		return nil, fmt.Errorf("internal error: the initial state of a counterexample: %v", err)
	}
	s := states[0]
	out := &model.Trace{Model: t.Model, InitMem: t.InitMem, InitRegs: t.InitRegs}
	for i, st := range t.Steps {
		got, ns, err := p.Exec(s, st.Proc, st.Trans, st.Flush, t.Model)
		if err != nil {
			return nil, fmt.Errorf("internal error: step %d of a counterexample of the lazy program: %v", i+1, err)
		}
		out.Steps = append(out.Steps, got)
		s = ns
	}
	return out, nil
}
