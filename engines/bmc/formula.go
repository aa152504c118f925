package bmc

import (
	"fmt"
	"math"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// fb builds terms in one Z3 context, folding the Boolean constants: tt and
// ff are the only true and false terms it hands out, so a condition known
// to be constant is recognised by pointer and never reaches Z3.
type fb struct {
	z      *smt.Context
	tt, ff *smt.Expr
	zero   *smt.Expr
	one    *smt.Expr
	ints   map[int64]*smt.Expr
	// side holds the definitions of the quotients and remainders that
	// expressions introduce; they hold in every model.
	side []*smt.Expr
}

func newFB(z *smt.Context) *fb {
	b := &fb{z: z, tt: z.True(), ff: z.False(), ints: map[int64]*smt.Expr{}}
	b.zero, b.one = b.num(0), b.num(1)
	return b
}

// num returns the numeral v.
func (b *fb) num(v int64) *smt.Expr {
	if e, ok := b.ints[v]; ok {
		return e
	}
	e := b.z.IntVal(v)
	if len(b.ints) < 1024 {
		b.ints[v] = e
	}
	return e
}

func (b *fb) and(xs ...*smt.Expr) *smt.Expr { return b.junction(xs, b.ff, b.tt, b.z.And) }

func (b *fb) or(xs ...*smt.Expr) *smt.Expr { return b.junction(xs, b.tt, b.ff, b.z.Or) }

// junction builds mk(xs...) simplified: zero absorbs the whole, units are
// dropped, and no or one operand left needs no connective.
func (b *fb) junction(xs []*smt.Expr, zero, unit *smt.Expr, mk func(...*smt.Expr) *smt.Expr) *smt.Expr {
	var keep []*smt.Expr
	for _, x := range xs {
		switch x {
		case zero:
			return zero
		case unit:
		default:
			keep = append(keep, x)
		}
	}
	switch len(keep) {
	case 0:
		return unit
	case 1:
		return keep[0]
	}
	return mk(keep...)
}

func (b *fb) not(x *smt.Expr) *smt.Expr {
	switch x {
	case b.tt:
		return b.ff
	case b.ff:
		return b.tt
	}
	return b.z.Not(x)
}

func (b *fb) implies(x, y *smt.Expr) *smt.Expr {
	switch {
	case x == b.ff || y == b.tt:
		return b.tt
	case x == b.tt:
		return y
	case y == b.ff:
		return b.not(x)
	}
	return b.z.Implies(x, y)
}

// ite returns if c then x else y for Int terms.
func (b *fb) ite(c, x, y *smt.Expr) *smt.Expr {
	switch c {
	case b.tt:
		return x
	case b.ff:
		return y
	}
	return b.z.Ite(c, x, y)
}

// b2i returns 1 when c holds, else 0.
func (b *fb) b2i(c *smt.Expr) *smt.Expr { return b.ite(c, b.one, b.zero) }

// truth returns x != 0.
func (b *fb) truth(x *smt.Expr) *smt.Expr {
	if v, ok := x.Int64(); ok {
		return b.bool(v != 0)
	}
	return b.not(b.z.Eq(x, b.zero))
}

func (b *fb) bool(v bool) *smt.Expr {
	if v {
		return b.tt
	}
	return b.ff
}

// eq returns x = y, folding numerals.
func (b *fb) eq(x, y *smt.Expr) *smt.Expr {
	if vx, ok := x.Int64(); ok {
		if vy, ok := y.Int64(); ok {
			return b.bool(vx == vy)
		}
	}
	return b.z.Eq(x, y)
}

// lt returns x < y, where nil is minus infinity.
func (b *fb) lt(x, y *smt.Expr) *smt.Expr {
	switch {
	case y == nil:
		return b.ff
	case x == nil:
		return b.tt
	}
	return b.z.Lt(x, y)
}

// inDom returns the condition that v lies in d.
func (b *fb) inDom(d model.Domain, v *smt.Expr) *smt.Expr {
	if d.Unbounded {
		return b.tt
	}
	if c, ok := v.Int64(); ok {
		return b.bool(d.Contains(c))
	}
	return b.and(b.z.Le(b.num(d.Lo), v), b.z.Le(v, b.num(d.Hi)))
}

// scope is what an expression is evaluated against: the registers of the
// executing process, memory inside a locked body, and the registers of
// every process in a bad-state condition.
type scope struct {
	regs []*smt.Expr
	mem  func(x int) *smt.Expr
	qual func(proc, reg int) *smt.Expr
	// prog and q give the domains of the variables and registers (q, the
	// executing process, is nil in a bad-state condition), which decide
	// whether an operation may wrap around int64 (see wrap64).
	prog *model.Program
	q    *model.Process
}

// expr returns the value of e and the condition under which evaluating it
// fails (a division by zero), following model.Eval: && and || short-circuit,
// / and % truncate toward zero. Integers are mathematical, but a sum,
// difference, product or negation that may leave int64 (by the domains of
// its operands) is wrapped to it, as Go's arithmetic is (wrap64).
func (b *fb) expr(e model.Expr, s *scope) (val, fail *smt.Expr, err error) {
	switch e := e.(type) {
	case model.Const:
		return b.num(e.Value), b.ff, nil
	case model.RegRef:
		if e.Proc < 0 {
			if e.Reg < 0 || e.Reg >= len(s.regs) {
				return nil, nil, fmt.Errorf("register %d out of range", e.Reg)
			}
			return s.regs[e.Reg], b.ff, nil
		}
		if s.qual == nil {
			return nil, nil, fmt.Errorf("a register of process %d named in a transition", e.Proc)
		}
		return s.qual(e.Proc, e.Reg), b.ff, nil
	case model.VarRef:
		if s.mem == nil {
			return nil, nil, fmt.Errorf("shared variable %d named outside a locked block", e.Var)
		}
		return s.mem(e.Var), b.ff, nil
	case model.Unary:
		x, fx, err := b.expr(e.X, s)
		if err != nil {
			return nil, nil, err
		}
		if e.Op == model.OpNot {
			return b.b2i(b.not(b.truth(x))), fx, nil
		}
		if e.Op == model.OpCompl {
			// ^x = -1 - x.
			return b.z.Sub(b.num(-1), x), fx, nil
		}
		if v, ok := x.Int64(); ok {
			return b.num(-v), fx, nil
		}
		return b.wrap64(e, s, b.z.Neg(x)), fx, nil
	case model.Binary:
		switch e.Op {
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			c, f, err := b.cond(e, s)
			if err != nil {
				return nil, nil, err
			}
			return b.b2i(c), f, nil
		}
		x, fx, err := b.expr(e.X, s)
		if err != nil {
			return nil, nil, err
		}
		y, fy, err := b.expr(e.Y, s)
		if err != nil {
			return nil, nil, err
		}
		fail := b.or(fx, fy)
		vx, cx := x.Int64()
		vy, cy := y.Int64()
		switch e.Op {
		case model.OpAdd:
			if cx && cy {
				return b.num(vx + vy), fail, nil
			}
			return b.wrap64(e, s, b.z.Add(x, y)), fail, nil
		case model.OpSub:
			if cx && cy {
				return b.num(vx - vy), fail, nil
			}
			return b.wrap64(e, s, b.z.Sub(x, y)), fail, nil
		case model.OpMul:
			if cx && cy {
				return b.num(vx * vy), fail, nil
			}
			return b.wrap64(e, s, b.z.Mul(x, y)), fail, nil
		case model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot:
			return b.bitwise(e.Op, x, y), fail, nil
		case model.OpShl, model.OpShr, model.OpShrU:
			v, f := b.shift(e.Op, x, y)
			return v, b.or(fail, f), nil
		case model.OpDiv, model.OpMod:
			if cy && vy == 0 {
				return b.zero, b.tt, nil
			}
			if cx && cy {
				if e.Op == model.OpDiv {
					return b.num(vx / vy), fail, nil
				}
				return b.num(vx % vy), fail, nil
			}
			if cy {
				// A constant divisor: x = c·q + r with r of x's sign and
				// |r| < |c|, in linear arithmetic.
				q, r := b.z.Int(fmt.Sprintf("dq%d", len(b.side))), b.z.Int(fmt.Sprintf("dr%d", len(b.side)))
				m := vy
				if m < 0 {
					m = -m
				}
				nonneg := b.z.Ge(x, b.zero)
				b.side = append(b.side, b.and(
					b.z.Eq(x, b.z.Add(b.z.Mul(y, q), r)),
					b.implies(nonneg, b.and(b.z.Le(b.zero, r), b.z.Le(r, b.num(m-1)))),
					b.implies(b.not(nonneg), b.and(b.z.Le(b.num(1-m), r), b.z.Le(r, b.zero)))))
				if e.Op == model.OpDiv {
					return q, fail, nil
				}
				return r, fail, nil
			}
			fail = b.or(fail, b.eq(y, b.zero))
			// Z3's div and mod are Euclidean; Go's truncate.
			qe, re := b.z.Div(x, y), b.z.Mod(x, y)
			adj := b.not(b.or(b.z.Ge(x, b.zero), b.z.Eq(re, b.zero)))
			if e.Op == model.OpDiv {
				step := b.ite(b.z.Gt(y, b.zero), b.one, b.num(-1))
				return b.ite(adj, b.z.Add(qe, step), qe), fail, nil
			}
			abs := b.ite(b.z.Ge(y, b.zero), y, b.z.Neg(y))
			return b.ite(adj, b.z.Sub(re, abs), re), fail, nil
		}
		return nil, nil, fmt.Errorf("unknown operator %v", e.Op)
	case model.Wrap:
		x, fx, err := b.expr(e.X, s)
		if err != nil {
			return nil, nil, err
		}
		if v, ok := x.Int64(); ok {
			return b.num(model.WrapValue(v, e.Bits, e.Signed)), fx, nil
		}
		if e.Bits < 1 || e.Bits > model.MaxWrapBits {
			return nil, nil, fmt.Errorf("wrap to %d bits", e.Bits)
		}
		// Z3's mod is Euclidean: the wrap of an unsigned type; a signed
		// one is shifted by half the modulus.
		var h int64
		if e.Signed {
			h = int64(1) << (e.Bits - 1)
			x = b.z.Add(x, b.num(h))
		}
		return b.z.Sub(b.z.Mod(x, b.num(int64(1)<<e.Bits)), b.num(h)), fx, nil
	case nil:
		return nil, nil, fmt.Errorf("missing expression")
	}
	return nil, nil, fmt.Errorf("unknown expression %T", e)
}

// cond returns the truth of e (e != 0) as a Boolean term, and the condition
// under which evaluating e fails.
func (b *fb) cond(e model.Expr, s *scope) (c, fail *smt.Expr, err error) {
	switch e := e.(type) {
	case model.Unary:
		if e.Op == model.OpNot {
			x, f, err := b.cond(e.X, s)
			if err != nil {
				return nil, nil, err
			}
			return b.not(x), f, nil
		}
	case model.Binary:
		switch e.Op {
		case model.OpAnd, model.OpOr:
			x, fx, err := b.cond(e.X, s)
			if err != nil {
				return nil, nil, err
			}
			y, fy, err := b.cond(e.Y, s)
			if err != nil {
				return nil, nil, err
			}
			if e.Op == model.OpAnd {
				return b.and(x, y), b.or(fx, b.and(x, fy)), nil
			}
			return b.or(x, y), b.or(fx, b.and(b.not(x), fy)), nil
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe:
			x, fx, err := b.expr(e.X, s)
			if err != nil {
				return nil, nil, err
			}
			y, fy, err := b.expr(e.Y, s)
			if err != nil {
				return nil, nil, err
			}
			fail := b.or(fx, fy)
			vx, cx := x.Int64()
			vy, cy := y.Int64()
			if cx && cy {
				var r bool
				switch e.Op {
				case model.OpEq:
					r = vx == vy
				case model.OpNe:
					r = vx != vy
				case model.OpLt:
					r = vx < vy
				case model.OpLe:
					r = vx <= vy
				case model.OpGt:
					r = vx > vy
				default:
					r = vx >= vy
				}
				return b.bool(r), fail, nil
			}
			switch e.Op {
			case model.OpEq:
				return b.z.Eq(x, y), fail, nil
			case model.OpNe:
				return b.not(b.z.Eq(x, y)), fail, nil
			case model.OpLt:
				return b.z.Lt(x, y), fail, nil
			case model.OpLe:
				return b.z.Le(x, y), fail, nil
			case model.OpGt:
				return b.z.Gt(x, y), fail, nil
			default:
				return b.z.Ge(x, y), fail, nil
			}
		}
	}
	v, f, err := b.expr(e, s)
	if err != nil {
		return nil, nil, err
	}
	return b.truth(v), f, nil
}

// wrap64 returns v, the exact value of the sum, difference, product or
// negation e, wrapped to int64 as Go computes it, when the domains of e's
// operands let it leave int64; otherwise v itself. The operands are int64
// values, so a sum, difference or negation is off by at most one modulus
// and needs one correction; a product needs a remainder.
func (b *fb) wrap64(e model.Expr, s *scope, v *smt.Expr) *smt.Expr {
	if s.inInt64(e) {
		return v
	}
	half := b.z.Add(b.num(math.MaxInt64), b.one) // 2^63
	mod := b.z.Add(half, half)                   // 2^64
	if bin, ok := e.(model.Binary); ok && bin.Op == model.OpMul {
		return b.z.Sub(b.z.Mod(b.z.Add(v, half), mod), half)
	}
	return b.ite(b.z.Gt(v, b.num(math.MaxInt64)), b.z.Sub(v, mod),
		b.ite(b.z.Lt(v, b.num(math.MinInt64)), b.z.Add(v, mod), v))
}

// inInt64 reports whether the exact value of e, its operands wrapped, lies
// within int64, by the domains of what it reads; always, for a program
// whose integers are mathematical.
func (s *scope) inInt64(e model.Expr) bool {
	if s.prog == nil {
		return false
	}
	if s.prog.Ints == model.Mathematical {
		return true // nothing wraps
	}
	regDom := func(r int) model.Domain {
		if s.q == nil || r < 0 || r >= len(s.q.Regs) {
			return model.Unbounded
		}
		return s.q.Regs[r].Dom
	}
	varDom := func(x int) model.Domain {
		if x < 0 || x >= len(s.prog.Vars) {
			return model.Unbounded
		}
		return s.prog.Vars[x].Dom
	}
	return facts.InInt64(e, regDom, varDom)
}
