package facts

import (
	"math"
	"math/big"

	"github.com/fencecheck/fencecheck/model"
)

// CanFault reports whether o, an operation of process q of p, may fault:
// divide by zero, or give a variable or register a value outside its
// domain. It errs on the side of yes.
func CanFault(p *model.Program, q *model.Process, o model.Op) bool {
	regDom := func(k int) model.Domain { return q.Regs[k].Dom }
	varDom := func(x int) model.Domain { return p.Vars[x].Dom }
	outside := func(e model.Expr, d model.Domain) bool {
		iv, divZero := eval(e, regDom, varDom)
		return divZero || (!d.Unbounded && !iv.within(d))
	}
	switch o.Kind {
	case model.Assign:
		return outside(o.Expr, q.Regs[o.Reg].Dom)
	case model.Guard:
		_, divZero := eval(o.Expr, regDom, varDom)
		return divZero
	case model.Write:
		return outside(o.Expr, p.Vars[o.Var].Dom)
	case model.Read:
		// The value read is one of x's domain and, with a required value,
		// that value.
		vals := domInterval(p.Vars[o.Var].Dom)
		if o.Expr != nil {
			want, divZero := eval(o.Expr, regDom, varDom)
			if divZero {
				return true
			}
			vals = vals.meet(want)
		}
		if o.Reg >= 0 {
			rd := q.Regs[o.Reg].Dom
			return !rd.Unbounded && !vals.within(rd)
		}
	case model.Locked:
		for _, b := range o.Body {
			if CanFault(p, q, b) {
				return true
			}
		}
	}
	return false
}

// interval is a set of integers [lo, hi], or every integer when top.
type interval struct {
	lo, hi *big.Int
	top    bool
}

func domInterval(d model.Domain) interval {
	if d.Unbounded {
		return interval{top: true}
	}
	return interval{big.NewInt(d.Lo), big.NewInt(d.Hi), false}
}

func point(v int64) interval { return interval{big.NewInt(v), big.NewInt(v), false} }

// within reports whether every value of iv lies in d, and iv within int64
// (the evaluator wraps beyond it).
func (iv interval) within(d model.Domain) bool {
	if iv.top {
		return d.Unbounded
	}
	if d.Unbounded {
		return iv.lo.IsInt64() && iv.hi.IsInt64()
	}
	if iv.lo.Cmp(iv.hi) > 0 {
		return true // empty
	}
	return iv.lo.Cmp(big.NewInt(d.Lo)) >= 0 && iv.hi.Cmp(big.NewInt(d.Hi)) <= 0
}

// meet returns the intersection of iv and jv (possibly empty: lo > hi).
func (iv interval) meet(jv interval) interval {
	switch {
	case iv.top:
		return jv
	case jv.top:
		return iv
	}
	lo, hi := iv.lo, iv.hi
	if jv.lo.Cmp(lo) > 0 {
		lo = jv.lo
	}
	if jv.hi.Cmp(hi) < 0 {
		hi = jv.hi
	}
	return interval{lo, hi, false}
}

// fits reports whether iv lies within int64.
func (iv interval) fits() bool { return !iv.top && iv.lo.IsInt64() && iv.hi.IsInt64() }

var (
	minInt = big.NewInt(math.MinInt64)
	maxInt = big.NewInt(math.MaxInt64)
)

// eval over-approximates the values of e, and reports whether it may
// fault (divide by zero, shift by a negative count). Results beyond int64 (which the evaluator wraps) make the
// interval top.
func eval(e model.Expr, regDom, varDom func(int) model.Domain) (interval, bool) {
	bool01 := interval{big.NewInt(0), big.NewInt(1), false}
	switch e := e.(type) {
	case model.Const:
		return point(e.Value), false
	case model.RegRef:
		if e.Proc >= 0 {
			return interval{top: true}, false // not in transitions
		}
		return domInterval(regDom(e.Reg)), false
	case model.VarRef:
		return domInterval(varDom(e.Var)), false
	case model.Unary:
		x, dz := eval(e.X, regDom, varDom)
		if e.Op == model.OpNot {
			return bool01, dz
		}
		if !x.fits() {
			return interval{top: true}, dz
		}
		if e.Op == model.OpCompl {
			// ^x = -1 - x.
			m1 := big.NewInt(-1)
			return norm(interval{new(big.Int).Sub(m1, x.hi), new(big.Int).Sub(m1, x.lo), false}), dz
		}
		return norm(interval{new(big.Int).Neg(x.hi), new(big.Int).Neg(x.lo), false}), dz
	case model.Binary:
		x, dzx := eval(e.X, regDom, varDom)
		y, dzy := eval(e.Y, regDom, varDom)
		dz := dzx || dzy
		switch e.Op {
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			return bool01, dz
		}
		if e.Op == model.OpDiv || e.Op == model.OpMod {
			if y.top || (y.lo.Sign() <= 0 && y.hi.Sign() >= 0) {
				dz = true
			}
		}
		if e.Op == model.OpShl || e.Op == model.OpShr || e.Op == model.OpShrU {
			// A negative count faults.
			if y.top || y.lo.Sign() < 0 {
				dz = true
			}
		}
		if !x.fits() || !y.fits() {
			return interval{top: true}, dz
		}
		var lo, hi *big.Int
		switch e.Op {
		case model.OpAdd:
			lo, hi = new(big.Int).Add(x.lo, y.lo), new(big.Int).Add(x.hi, y.hi)
		case model.OpSub:
			lo, hi = new(big.Int).Sub(x.lo, y.hi), new(big.Int).Sub(x.hi, y.lo)
		case model.OpMul:
			c := []*big.Int{
				new(big.Int).Mul(x.lo, y.lo), new(big.Int).Mul(x.lo, y.hi),
				new(big.Int).Mul(x.hi, y.lo), new(big.Int).Mul(x.hi, y.hi),
			}
			lo, hi = c[0], c[0]
			for _, v := range c[1:] {
				if v.Cmp(lo) < 0 {
					lo = v
				}
				if v.Cmp(hi) > 0 {
					hi = v
				}
			}
		case model.OpDiv:
			// |x / y| <= |x| for |y| >= 1 (MinInt64 / -1 wraps: top).
			m := maxAbs(x)
			lo, hi = new(big.Int).Neg(m), m
			if x.lo.Cmp(minInt) == 0 {
				return interval{top: true}, dz
			}
		case model.OpMod:
			// |x % y| < |y| and |x % y| <= |x|; the sign is x's.
			m := new(big.Int).Sub(maxAbs(y), big.NewInt(1))
			if ax := maxAbs(x); ax.Cmp(m) < 0 {
				m = ax
			}
			lo, hi = new(big.Int).Neg(m), new(big.Int).Set(m)
			if x.lo.Sign() >= 0 {
				lo = big.NewInt(0)
			}
			if x.hi.Sign() <= 0 {
				hi = big.NewInt(0)
			}
		case model.OpBitAnd:
			// A non-negative operand clears every bit it does not set.
			switch {
			case x.lo.Sign() >= 0 && y.lo.Sign() >= 0:
				lo, hi = big.NewInt(0), x.hi
				if y.hi.Cmp(hi) < 0 {
					hi = y.hi
				}
			case x.lo.Sign() >= 0:
				lo, hi = big.NewInt(0), x.hi
			case y.lo.Sign() >= 0:
				lo, hi = big.NewInt(0), y.hi
			default:
				return interval{top: true}, dz
			}
		case model.OpShr:
			// An arithmetic shift moves a value towards 0 or -1.
			lo, hi = x.lo, x.hi
			if lo.Sign() > 0 {
				lo = big.NewInt(0)
			}
			if hi.Sign() < 0 {
				hi = big.NewInt(0)
			}
		default:
			return interval{top: true}, dz
		}
		return norm(interval{lo, hi, false}), dz
	case model.Wrap:
		x, dz := eval(e.X, regDom, varDom)
		lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(e.Bits))
		if e.Signed {
			lo = new(big.Int).Neg(new(big.Int).Rsh(hi, 1))
			hi = new(big.Int).Rsh(hi, 1)
		}
		hi.Sub(hi, big.NewInt(1))
		if !x.top && x.lo.Cmp(lo) >= 0 && x.hi.Cmp(hi) <= 0 {
			return x, dz
		}
		return interval{lo, hi, false}, dz
	case model.Float:
		// No float operation faults; its result is a bit pattern (or an
		// integer) of its width, never beyond int64.
		_, dz := eval(e.X, regDom, varDom)
		if e.Y != nil {
			_, dzy := eval(e.Y, regDom, varDom)
			dz = dz || dzy
		}
		switch {
		case e.Op.Compare():
			return bool01, dz
		case e.Op == model.FToInt32:
			return interval{big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32), false}, dz
		case e.Op < model.FToInt64 && e.Bits == 32:
			return interval{big.NewInt(0), big.NewInt(math.MaxUint32), false}, dz
		}
		return interval{new(big.Int).Set(minInt), new(big.Int).Set(maxInt), false}, dz
	}
	return interval{top: true}, true
}

// InInt64 reports whether every value of e, evaluated by a process whose
// registers have the domains regDom and with the variables' domains
// varDom, lies within int64 before Go's arithmetic wraps it: false when
// a sum, difference, product or negation in e may leave int64. A register
// of a named process (in a bad-state condition) may hold any int64.
func InInt64(e model.Expr, regDom, varDom func(int) model.Domain) bool {
	iv, _ := eval(e, regDom, varDom)
	return iv.fits()
}

// norm makes an interval beyond int64 top.
func norm(iv interval) interval {
	if iv.top || iv.lo.Cmp(minInt) < 0 || iv.hi.Cmp(maxInt) > 0 {
		return interval{top: true}
	}
	return iv
}

func maxAbs(iv interval) *big.Int {
	a, b := new(big.Int).Abs(iv.lo), new(big.Int).Abs(iv.hi)
	if a.Cmp(b) > 0 {
		return a
	}
	return b
}
