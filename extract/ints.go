package extract

import (
	"go/token"
	"go/types"
	"math"
	"math/bits"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Go's integers in the model (see "Domains and overflow" in the package
// documentation). A value of a type narrower than 64 bits is held as itself;
// a uint64, uint or uintptr as its two's complement bit pattern, an int64
// (so 2^64-1 is -1). Every expression a process computes is reduced to its Go
// type where Go reduces it: a [model.Wrap] around arithmetic on narrow types,
// nothing at 64 bits, where the model's int64 arithmetic wraps by itself.
// What differs between signed and unsigned 64-bit values (comparisons,
// division, remainder, right shifts) is lowered to signed operations that
// compute the unsigned result exactly.

// intBits returns the width and signedness of an integer type (of the value
// type of a sync/atomic typed value); ok is false for other types.
func intBits(t types.Type) (width uint8, signed, ok bool) {
	if b, isAtomic := atomicKind(t); isAtomic {
		t = b
	}
	b, isBasic := t.Underlying().(*types.Basic)
	if !isBasic {
		return 0, false, false
	}
	switch b.Kind() {
	case types.Int8:
		return 8, true, true
	case types.Int16:
		return 16, true, true
	case types.Int32, types.UntypedRune:
		return 32, true, true
	case types.Int, types.Int64, types.UntypedInt:
		return 64, true, true
	case types.Uint8:
		return 8, false, true
	case types.Uint16:
		return 16, false, true
	case types.Uint32:
		return 32, false, true
	case types.Uint, types.Uint64, types.Uintptr:
		return 64, false, true
	}
	return 0, false, false
}

// isUnsigned64 reports whether t is uint64, uint or uintptr, whose values
// the model holds as int64 bit patterns.
func isUnsigned64(t types.Type) bool {
	w, signed, ok := intBits(t)
	return ok && w == 64 && !signed
}

// wrapTo returns e reduced to the values of t, as Go reduces the result of
// arithmetic: a [model.Wrap] for a type narrower than 64 bits, e itself for
// 64-bit and non-integer types.
func wrapTo(e model.Expr, t types.Type) model.Expr {
	w, signed, ok := intBits(t)
	if !ok || w >= 64 {
		return e
	}
	return wrapBits(e, w, signed)
}

// wrapBits returns e reduced to w bits, folding constants and dropping a
// wrap to the same width that e already has.
func wrapBits(e model.Expr, w uint8, signed bool) model.Expr {
	if w == 0 {
		return model.C(0)
	}
	switch x := e.(type) {
	case model.Const:
		return model.C(model.WrapValue(x.Value, w, signed))
	case model.Wrap:
		if x.Bits == w && x.Signed == signed {
			return e
		}
	}
	return model.W(e, w, signed)
}

// convertTo returns e, a value of type from, converted to type to: the same
// int64 when every value of from is one of to (and for every conversion to a
// 64-bit type: a bit pattern reads as int64 or uint64 alike), a wrap to the
// width of to otherwise.
func convertTo(e model.Expr, from, to types.Type) model.Expr {
	tw, ts, ok := intBits(to)
	if !ok || tw >= 64 {
		return e
	}
	fw, fs, ok := intBits(from)
	if ok && fw < 64 {
		switch {
		case fs == ts && fw <= tw, !fs && ts && fw < tw:
			return e
		}
	}
	return wrapBits(e, tw, ts)
}

func lt(x, y model.Expr) model.Expr  { return model.Bin(model.OpLt, x, y) }
func and(x, y model.Expr) model.Expr { return model.Bin(model.OpAnd, x, y) }
func or(x, y model.Expr) model.Expr  { return model.Bin(model.OpOr, x, y) }
func neg(x model.Expr) model.Expr    { return lt(x, model.C(0)) }
func nonNeg(x model.Expr) model.Expr { return model.Bin(model.OpGe, x, model.C(0)) }

// ult returns x < y on uint64 bit patterns: the signed comparison when x and
// y have the same sign bit, else y has it (y ≥ 2^63 > x).
func ult(x, y model.Expr) model.Expr {
	if c, ok := y.(model.Const); ok {
		if c.Value >= 0 {
			return and(nonNeg(x), lt(x, y))
		}
		return or(nonNeg(x), lt(x, y))
	}
	if c, ok := x.(model.Const); ok {
		if c.Value >= 0 {
			return or(neg(y), lt(x, y))
		}
		return and(neg(y), lt(x, y))
	}
	return model.Bin(model.OpNe, lt(x, y), model.Bin(model.OpNe, neg(x), neg(y)))
}

// compareUnsigned64 returns the comparison op of two uint64 bit patterns.
func compareUnsigned64(op token.Token, x, y model.Expr) model.Expr {
	switch op {
	case token.LSS:
		return ult(x, y)
	case token.GTR:
		return ult(y, x)
	case token.LEQ:
		return model.Not(ult(y, x))
	default: // token.GEQ
		return model.Not(ult(x, y))
	}
}

// half returns x >> 1 of a uint64 bit pattern x, with the low bit of x:
// x = 2*half + low as unsigned numbers. For x < 0 (x ≥ 2^63) the shift is
// (x - low)/2 + 2^63, which int64 arithmetic computes exactly as
// (x - low)/2 - MinInt64.
func half(x model.Expr) (h, low model.Expr) {
	if c, ok := x.(model.Const); ok {
		return model.C(int64(uint64(c.Value) >> 1)), model.C(c.Value & 1)
	}
	low = wrapBits(x, 1, false)
	h = model.Bin(model.OpDiv, model.Bin(model.OpSub, x, low), model.C(2))
	return model.Bin(model.OpSub, h, model.Bin(model.OpMul, neg(x), model.C(math.MinInt64))), low
}

// udivmod returns x / y and x % y of uint64 bit patterns, y not zero.
// A power-of-two divisor is a shift and a wrap; a divisor below 2^63 halves
// x first (x = 2h + low, h < 2^63, so h / y is a signed division) and
// carries: x / y = 2(h / y) + c, x % y = 2(h % y) + low - c*y, where c is
// 1 when 2(h % y) + low ≥ y. A divisor of 2^63 or more goes into x at most
// once.
func udivmod(x, y model.Expr) (q, r model.Expr) {
	if c, ok := y.(model.Const); ok && c.Value > 0 && c.Value&(c.Value-1) == 0 {
		k := uint8(bits.TrailingZeros64(uint64(c.Value)))
		if k == 0 {
			return x, model.C(0)
		}
		return ushr(x, int64(k)), wrapBits(x, k, false)
	}
	if c, ok := y.(model.Const); ok && c.Value > 2 && c.Value <= maxSmallDivisor {
		return udivmodConst(x, c.Value)
	}
	geq := model.Not(ult(x, y))
	if c, ok := y.(model.Const); ok && c.Value < 0 {
		return geq, model.Bin(model.OpSub, x, model.Bin(model.OpMul, geq, y))
	}
	h, low := half(x)
	hq := model.Bin(model.OpDiv, h, y)
	hr := model.Bin(model.OpMod, h, y)
	carry := model.Bin(model.OpGe, model.Bin(model.OpAdd, hr, low), model.Bin(model.OpSub, y, hr))
	q = model.Bin(model.OpAdd, model.Bin(model.OpMul, model.C(2), hq), carry)
	if _, ok := y.(model.Const); !ok {
		// A run-time divisor may be 2^63 or more.
		q = model.Bin(model.OpAdd, model.Bin(model.OpMul, neg(y), geq), model.Bin(model.OpMul, nonNeg(y), q))
	}
	return q, model.Bin(model.OpSub, x, model.Bin(model.OpMul, q, y))
}

// maxSmallDivisor bounds the constant divisors udivmodConst takes: below
// it, every intermediate value of its formula fits in an int64.
const maxSmallDivisor = 1 << 62

// udivmodConst returns x / c and x % c of a uint64 bit pattern x and a
// constant 2 < c ≤ maxSmallDivisor, with one signed division and one
// remainder by c and no halving: the predicate and bounded engines decide
// these in milliseconds where the halving's nested divisions can cost a
// solver minutes. For x < 0 the unsigned value is u = x + 2^64; with
// 2^64 = Q·c + R and Go's truncated remainder, t = x%c + R lies in
// (-c, 2c) and u % c is t, or t + c when t < 0; u / c is x/c + Q, less
// one when t < 0. For x ≥ 0 both are the signed ones, which the same
// formulas give with the terms of the sign s = (x < 0) zero. No
// intermediate value leaves the int64 range, so mathematical integers
// compute the same.
func udivmodConst(x model.Expr, c int64) (q, r model.Expr) {
	cu := uint64(c)
	if k, ok := x.(model.Const); ok {
		u := uint64(k.Value)
		return model.C(int64(u / cu)), model.C(int64(u % cu))
	}
	bigQ := int64(math.MaxUint64 / cu)
	bigR := int64(math.MaxUint64%cu + 1) // 2^64 mod c, or c
	if bigR == c {
		bigQ, bigR = bigQ+1, 0
	}
	s := neg(x)
	t := model.Bin(model.OpAdd, model.Bin(model.OpMod, x, model.C(c)), model.Bin(model.OpMul, s, model.C(bigR)))
	tNeg := neg(t)
	r = model.Bin(model.OpAdd, t, model.Bin(model.OpMul, model.C(c), tNeg))
	q = model.Bin(model.OpSub, model.Bin(model.OpAdd, model.Bin(model.OpDiv, x, model.C(c)), model.Bin(model.OpMul, s, model.C(bigQ))), tNeg)
	return q, r
}

// ushr returns x >> k of a uint64 bit pattern, k ≥ 0.
func ushr(x model.Expr, k int64) model.Expr {
	switch {
	case k == 0:
		return x
	case k >= 64:
		return model.C(0)
	}
	h, _ := half(x)
	if k == 1 {
		return h
	}
	return model.Bin(model.OpDiv, h, model.C(1<<(k-1)))
}

// shift returns x << k or x >> k (op) of type t for a count k ≥ 0 known when
// the system is lowered (counts of 2^63 and more shift every bit out).
func shift(op token.Token, x model.Expr, k int64, t types.Type) (model.Expr, bool) {
	w, signed, ok := intBits(t)
	if !ok {
		return nil, false
	}
	switch {
	case k < 0:
		k = math.MaxInt64
	case k == 0:
		return x, true
	}
	if op == token.SHL {
		if k >= int64(w) {
			return model.C(0), true
		}
		return wrapTo(model.Bin(model.OpMul, x, model.C(int64(uint64(1)<<k))), t), true
	}
	switch {
	case w == 64 && !signed:
		return ushr(x, k), true
	case !signed:
		if k >= int64(w) {
			return model.C(0), true
		}
		return model.Bin(model.OpDiv, x, model.C(1<<k)), true
	case k >= int64(w)-1:
		// Only the sign is left: -1 or 0.
		return model.Bin(model.OpSub, model.C(0), neg(x)), true
	}
	// Go's >> rounds down; the division truncates an exact multiple.
	return model.Bin(model.OpDiv, model.Bin(model.OpSub, x, wrapBits(x, uint8(k), false)), model.C(1<<k)), true
}

// lowMask returns k when c is 2^k-1 with 1 ≤ k ≤ model.MaxWrapBits: x & c
// keeps the k low bits of x, a wrap to k unsigned bits.
func lowMask(c int64) (uint8, bool) {
	if c <= 0 || c&(c+1) != 0 {
		return 0, false
	}
	k := bits.Len64(uint64(c))
	return uint8(k), k <= model.MaxWrapBits
}

// complement returns ^x of type t.
func complement(x model.Expr, t types.Type) model.Expr {
	if w, signed, ok := intBits(t); ok && !signed && w < 64 {
		return model.Bin(model.OpSub, model.C(1<<w-1), x)
	}
	return model.Bin(model.OpSub, model.C(-1), x)
}

// runBinOp returns the expression of x op y on values of type t (the type of
// the operands) known only at run time, as Go computes it, or ok false for
// an operator the model cannot express. A division's divisor is not zero
// here: the lowering branches to a panic before.
func runBinOp(op token.Token, x, y model.Expr, t types.Type, yType types.Type) (model.Expr, bool) {
	u64 := isUnsigned64(t)
	switch op {
	case token.ADD:
		return wrapTo(model.Bin(model.OpAdd, x, y), t), true
	case token.SUB:
		return wrapTo(model.Bin(model.OpSub, x, y), t), true
	case token.MUL:
		return wrapTo(model.Bin(model.OpMul, x, y), t), true
	case token.QUO, token.REM:
		if u64 {
			q, r := udivmod(x, y)
			if op == token.QUO {
				return q, true
			}
			return r, true
		}
		if op == token.QUO {
			// MinInt8 / -1 is 128, which int8 wraps to -128.
			return wrapTo(model.Bin(model.OpDiv, x, y), t), true
		}
		if w, signed, _ := intBits(t); !signed && w < 64 {
			if c, ok := y.(model.Const); ok && c.Value > 0 && c.Value&(c.Value-1) == 0 {
				// The low bits: a wrap, as for uint64.
				return wrapBits(x, uint8(bits.TrailingZeros64(uint64(c.Value))), false), true
			}
		}
		return model.Bin(model.OpMod, x, y), true
	case token.EQL:
		return model.Bin(model.OpEq, x, y), true
	case token.NEQ:
		return model.Bin(model.OpNe, x, y), true
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if u64 {
			return compareUnsigned64(op, x, y), true
		}
		return model.Bin(modelOps[op], x, y), true
	case token.SHL, token.SHR:
		c, ok := y.(model.Const)
		if !ok {
			return runShift(op, x, y, t, yType)
		}
		k := c.Value
		if k < 0 && isUnsigned(yType) {
			k = math.MaxInt64 // a count of 2^63 or more
		}
		return shift(op, x, k, t)
	case token.OR:
		return model.Bin(model.OpBitOr, x, y), true
	case token.XOR:
		return model.Bin(model.OpXor, x, y), true
	case token.AND_NOT:
		if c, ok := y.(model.Const); ok {
			return runBinOp(token.AND, x, model.C(^c.Value), t, yType)
		}
		return model.Bin(model.OpAndNot, x, y), true
	case token.AND:
		for _, p := range [][2]model.Expr{{x, y}, {y, x}} {
			if c, ok := p[1].(model.Const); ok {
				if c.Value == 0 {
					return model.C(0), true
				}
				if c.Value == -1 {
					return p[0], true
				}
				if k, ok := lowMask(c.Value); ok {
					return wrapBits(p[0], k, false), true
				}
			}
		}
		// Values are held sign- or zero-extended, so the bitwise operators
		// of int64 keep them in their type.
		return model.Bin(model.OpBitAnd, x, y), true
	}
	return nil, false
}

// runShift returns x << y or x >> y (op) of type t for a count y of type
// yType known only at run time and not negative (a negative count of a
// signed type panics before: proc.guardBinOp). A uint64 count of 2^63 or
// more, a negative bit pattern, shifts every bit out: it becomes 64. A right
// shift of a signed value is arithmetic, of a narrower unsigned one (never
// negative) too, of a uint64 bit pattern logical; a left shift is wrapped
// to t.
func runShift(op token.Token, x, y model.Expr, t, yType types.Type) (model.Expr, bool) {
	if _, _, ok := intBits(t); !ok {
		return nil, false
	}
	if isUnsigned64(yType) {
		y = model.Bin(model.OpAdd, model.Bin(model.OpMul, y, nonNeg(y)), model.Bin(model.OpMul, model.C(64), neg(y)))
	}
	switch {
	case op == token.SHL:
		return wrapTo(model.Bin(model.OpShl, x, y), t), true
	case isUnsigned64(t):
		return model.Bin(model.OpShrU, x, y), true
	}
	return model.Bin(model.OpShr, x, y), true
}

// guardBinOp emits, before the binary operation in at location cur, the
// panics of Go's run time: an integer division or remainder by zero, a shift
// by a negative count. It returns the location after the checks, or -1 when
// in always panics.
func (p *proc) guardBinOp(fr *frame, in *ssa.BinOp, cur int) int {
	var name string
	switch in.Op {
	case token.QUO, token.REM:
		name = "integer divide by zero"
	case token.SHL, token.SHR:
		name = "negative shift amount"
	default:
		return cur
	}
	if !isIntegral(in.Y.Type()) {
		return cur
	}
	y := p.s.get(fr, in.Y)
	if y.kind != vInt {
		return cur
	}
	pos, o := in.Pos(), Origin{}
	if x, ok := p.s.x.debugOf(fr.fn).expr[in]; ok {
		pos, o.Node = x.Pos(), x
	}
	c, isConst := y.constant()
	bad, good := model.Bin(model.OpEq, y.e, model.C(0)), model.Bin(model.OpNe, y.e, model.C(0))
	if name == "negative shift amount" {
		if isUnsigned(in.Y.Type()) {
			return cur
		}
		bad, good = neg(y.e), nonNeg(y.e)
	}
	switch {
	case isConst && name == "negative shift amount" && c >= 0:
		return cur
	case isConst && name != "negative shift amount" && c != 0:
		return cur
	case !isConst:
		z := p.emit(cur, model.GuardOp(bad), pos, o)
		p.panicAt(panicSite{loc: z, name: name, pos: pos})
		return p.emit(cur, model.GuardOp(good), pos, o)
	}
	p.panicAt(panicSite{loc: cur, name: name, pos: pos})
	return -1
}

// fetchAdd is [model.FetchAdd] for a value of type t: the sum wraps as Go's.
func fetchAdd(x, reg int, d model.Expr, t types.Type) model.Op {
	return model.LockedOp(model.ReadOp(x, reg), model.WriteOp(x, wrapTo(model.Bin(model.OpAdd, model.V(x), d), t)))
}

// wrapAbs is the abstract value of a [model.Wrap] to w bits of a value in a:
// a itself when it fits, else its values wrapped, or the whole range of the
// width (top when that range is too large to be a domain, as for clip).
func wrapAbs(a abs, w uint8, signed bool) abs {
	lo, hi := int64(0), int64(1)<<w-1
	if signed {
		lo, hi = -(int64(1) << (w - 1)), int64(1)<<(w-1)-1
	}
	if a.empty() {
		return a
	}
	if !a.top {
		if l, h := a.bounds(); lo <= l && h <= hi {
			return a
		}
		if vs, ok := a.values(); ok {
			out := make([]int64, len(vs))
			for i, v := range vs {
				out[i] = model.WrapValue(v, w, signed)
			}
			return fromSet(out)
		}
	}
	return clip(topAbs, lo, hi)
}
