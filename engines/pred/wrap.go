package pred

import "github.com/fencecheck/fencecheck/model"

// A [model.Wrap] is a Euclidean remainder modulo 2^Bits, which Z3 decides
// at a cost. Most wraps reduce the sum or difference of two values of the
// wrap's own type, which lies within one modulus of the type's range: one
// correction reduces it, a linear term. reduceWraps finds, by a greatest
// fixpoint, the variables and registers whose values always lie in the
// range of a type (their initial values do, and so does every value
// assigned to them), and replaces the wraps of sums and differences of such
// values (wraps of the same type inside them dropped first: a wrap commutes
// with both) by
//
//	s - M*(s > hi) + M*(s < lo)
//
// which equals the wrap on every reachable state, and a wrap of a value of
// the range by the value. Other wraps (of products, of conversions from
// wider types, of the counters lazy.go keeps unreduced) stay remainders.

// wrapKind is the type of a wrap.
type wrapKind struct {
	bits   uint8
	signed bool
}

func (k wrapKind) bounds() (lo, hi int64) {
	if k.signed {
		return -(int64(1) << (k.bits - 1)), int64(1)<<(k.bits-1) - 1
	}
	return 0, int64(1)<<k.bits - 1
}

func (k wrapKind) contains(lo, hi int64) bool {
	l, h := k.bounds()
	return l <= lo && hi <= h
}

// inRange is, for one wrap kind, which variables and registers always hold
// values of its range.
type inRange struct {
	k    wrapKind
	vars []bool
	regs [][]bool
}

// expr reports whether e, evaluated by process q (or in a bad-state
// condition, q < 0), always has a value of the range.
func (r *inRange) expr(e model.Expr, q int) bool {
	switch e := e.(type) {
	case model.Const:
		return r.k.contains(e.Value, e.Value)
	case model.VarRef:
		return e.Var < len(r.vars) && r.vars[e.Var]
	case model.RegRef:
		p := e.Proc
		if p < 0 {
			p = q
		}
		return p >= 0 && p < len(r.regs) && e.Reg < len(r.regs[p]) && r.regs[p][e.Reg]
	case model.Wrap:
		return r.k.contains(wrapKind{e.Bits, e.Signed}.bounds())
	case model.Unary:
		return e.Op == model.OpNot && r.k.contains(0, 1)
	case model.Binary:
		switch e.Op {
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			return r.k.contains(0, 1)
		}
	}
	return false
}

// newInRange computes the greatest sets of variables and registers of p
// that hold values of k's range in every reachable state.
func newInRange(p *model.Program, k wrapKind) *inRange {
	r := &inRange{k: k, vars: make([]bool, len(p.Vars)), regs: make([][]bool, len(p.Procs))}
	initIn := func(in model.Init, d model.Domain) bool {
		if in.Any {
			return !d.Unbounded && k.contains(d.Lo, d.Hi)
		}
		return k.contains(in.Value, in.Value)
	}
	for x, v := range p.Vars {
		r.vars[x] = initIn(v.Init, v.Dom)
	}
	for qi, q := range p.Procs {
		r.regs[qi] = make([]bool, len(q.Regs))
		for ri, reg := range q.Regs {
			r.regs[qi][ri] = initIn(reg.Init, reg.Dom)
		}
	}
	for changed := true; changed; {
		changed = false
		drop := func(b *bool) {
			if *b {
				*b, changed = false, true
			}
		}
		var visit func(qi int, o model.Op)
		visit = func(qi int, o model.Op) {
			switch o.Kind {
			case model.Assign:
				if !r.expr(o.Expr, qi) {
					drop(&r.regs[qi][o.Reg])
				}
			case model.Read:
				if o.Reg >= 0 && !r.vars[o.Var] {
					drop(&r.regs[qi][o.Reg])
				}
			case model.Write:
				if !r.expr(o.Expr, qi) {
					drop(&r.vars[o.Var])
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
	}
	return r
}

// reduce returns the wrap of x, evaluated by process q, to r's kind. Wraps
// of the same kind inside sums and differences are dropped first (a wrap
// commutes with them); then a sum of at most two values of the range, with
// coefficients ±1, plus a constant, that lies within one modulus of the
// range needs a single correction, and none when it lies in the range.
// Anything else stays a [model.Wrap].
func (r *inRange) reduce(x model.Expr, q int) model.Expr {
	wrap := model.Wrap{X: x, Bits: r.k.bits, Signed: r.k.signed}
	if r.k.bits > 32 {
		return wrap
	}
	terms, c, ok := r.linear(x, 1, nil)
	if !ok || len(terms) > 2 {
		return wrap
	}
	if len(terms) == 0 {
		return model.C(model.WrapValue(c, r.k.bits, r.k.signed))
	}
	lo, hi := r.k.bounds()
	m := int64(1) << r.k.bits
	smin, smax := c, c
	var s model.Expr
	for _, t := range terms {
		if !r.expr(t.e, q) || t.k != 1 && t.k != -1 {
			return wrap
		}
		op := model.OpAdd
		if t.k == 1 {
			smin, smax = smin+lo, smax+hi
		} else {
			smin, smax = smin-hi, smax-lo
			op = model.OpSub
		}
		switch {
		case s == nil && t.k == 1:
			s = t.e
		case s == nil:
			s = model.Bin(model.OpSub, model.C(0), t.e)
		default:
			s = model.Bin(op, s, t.e)
		}
	}
	if smin < lo-m || smax > hi+m {
		return wrap
	}
	if c != 0 {
		s = model.Bin(model.OpAdd, s, model.C(c))
	}
	if smax > hi {
		s = model.Bin(model.OpSub, s, model.Bin(model.OpMul, model.C(m), model.Bin(model.OpGt, s, model.C(hi))))
	}
	if smin < lo {
		s = model.Bin(model.OpAdd, s, model.Bin(model.OpMul, model.C(m), model.Bin(model.OpLt, s, model.C(lo))))
	}
	return s
}

// term is k*e.
type term struct {
	k int64
	e model.Expr
}

// linear writes k*x as a sum of terms plus a constant, through additions,
// subtractions, negations and wraps of r's kind (which commute with them);
// ok is false when a constant would overflow.
func (r *inRange) linear(x model.Expr, k int64, terms []term) ([]term, int64, bool) {
	switch e := x.(type) {
	case model.Const:
		// Constants beyond 2^40 are left to the wrap.
		return terms, k * e.Value, e.Value < 1<<40 && e.Value > -(1<<40)
	case model.Wrap:
		if e.Bits == r.k.bits && e.Signed == r.k.signed {
			return r.linear(e.X, k, terms)
		}
	case model.Unary:
		if e.Op == model.OpNeg {
			return r.linear(e.X, -k, terms)
		}
	case model.Binary:
		if e.Op == model.OpAdd || e.Op == model.OpSub {
			terms, c1, ok := r.linear(e.X, k, terms)
			if !ok {
				return nil, 0, false
			}
			ky := k
			if e.Op == model.OpSub {
				ky = -k
			}
			terms, c2, ok := r.linear(e.Y, ky, terms)
			return terms, c1 + c2, ok
		}
	}
	return append(terms, term{k, x}), 0, true
}

// reduceWraps returns p, or a copy of p whose wraps of sums and differences
// of in-range values are single corrections (see above).
func reduceWraps(p *model.Program) *model.Program {
	kinds := map[wrapKind]*inRange{}
	find := func(e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			if w, ok := e.(model.Wrap); ok {
				kinds[wrapKind{w.Bits, w.Signed}] = nil
			}
		})
	}
	var findOp func(o model.Op)
	findOp = func(o model.Op) {
		find(o.Expr)
		for _, b := range o.Body {
			findOp(b)
		}
	}
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			findOp(t.Op)
		}
	}
	for _, b := range p.Bad {
		find(b.Cond)
	}
	if len(kinds) == 0 {
		return p
	}
	for k := range kinds {
		kinds[k] = newInRange(p, k)
	}
	var reduce func(e model.Expr, q int) model.Expr
	reduce = func(e model.Expr, q int) model.Expr {
		switch x := e.(type) {
		case model.Unary:
			return model.Unary{Op: x.Op, X: reduce(x.X, q)}
		case model.Binary:
			return model.Binary{Op: x.Op, X: reduce(x.X, q), Y: reduce(x.Y, q)}
		case model.Wrap:
			k := wrapKind{x.Bits, x.Signed}
			return kinds[k].reduce(reduce(x.X, q), q)
		}
		return e
	}
	c := p.Clone()
	forOps(c, func(q int, o *model.Op) {
		if o.Expr != nil {
			o.Expr = reduce(o.Expr, q)
		}
	}, func(e model.Expr) model.Expr { return reduce(e, -1) })
	c.Index()
	return c
}

// forOps calls op on every operation of p (nested locked bodies after
// their operation), with the index of its process, and replaces every
// bad-state condition c by bad(c).
func forOps(p *model.Program, op func(q int, o *model.Op), bad func(c model.Expr) model.Expr) {
	var walk func(q int, o *model.Op)
	walk = func(q int, o *model.Op) {
		op(q, o)
		for i := range o.Body {
			walk(q, &o.Body[i])
		}
	}
	for qi, q := range p.Procs {
		for ti := range q.Trans {
			walk(qi, &q.Trans[ti].Op)
		}
	}
	for bi := range p.Bad {
		if p.Bad[bi].Cond != nil {
			p.Bad[bi].Cond = bad(p.Bad[bi].Cond)
		}
	}
}
