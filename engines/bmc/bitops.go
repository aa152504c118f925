package bmc

import (
	"fmt"
	"math"

	"github.com/fencecheck/fencecheck/engines/smt"
	"github.com/fencecheck/fencecheck/model"
)

// The bitwise operators and shifts of model.Eval in linear integer
// arithmetic: an operand is split into the 64 bits of its two's complement
// (fresh 0/1 constants whose weighted sum is the operand modulo 2^64), and
// a result is the weighted sum of its bits, so that it is exactly the int64
// that model.Eval computes.

// bitsOf returns the 64 bits of x modulo 2^64, least significant first,
// each a term equal to 0 or 1.
func (b *fb) bitsOf(x *smt.Expr) []*smt.Expr {
	out := make([]*smt.Expr, 64)
	if v, ok := x.Int64(); ok {
		for i := range out {
			out[i] = b.num(int64(uint64(v) >> i & 1))
		}
		return out
	}
	id := len(b.side)
	for i := range out {
		out[i] = b.z.Int(fmt.Sprintf("bit%d_%d", id, i))
		b.side = append(b.side, b.z.Le(b.zero, out[i]), b.z.Le(out[i], b.one))
	}
	// x = value(bits) + 2^64·k for an integer k.
	k := b.z.Int(fmt.Sprintf("bitk%d", id))
	two32 := b.num(1 << 32)
	b.side = append(b.side, b.z.Eq(x, b.z.Add(b.fromBits(out), b.z.Mul(b.z.Mul(two32, two32), k))))
	return out
}

// fromBits returns the int64 whose two's complement bits (0/1 terms, least
// significant first) are bits.
func (b *fb) fromBits(bits []*smt.Expr) *smt.Expr {
	var sum []*smt.Expr
	for i, t := range bits {
		if v, ok := t.Int64(); ok && v == 0 {
			continue
		}
		w := int64(1) << i
		if i == 63 {
			w = math.MinInt64
		}
		sum = append(sum, b.z.Mul(b.num(w), t))
	}
	if len(sum) == 0 {
		return b.zero
	}
	return b.z.Add(sum...)
}

// bitwise returns x op y for op one of &, |, ^, &^.
func (b *fb) bitwise(op model.BinOp, x, y *smt.Expr) *smt.Expr {
	if vx, ok := x.Int64(); ok {
		if vy, ok := y.Int64(); ok {
			v, _ := model.Eval(model.Bin(op, model.C(vx), model.C(vy)), &model.Env{})
			return b.num(v)
		}
	}
	xs, ys := b.bitsOf(x), b.bitsOf(y)
	out := make([]*smt.Expr, 64)
	for i := range out {
		one := func(t *smt.Expr) *smt.Expr { return b.eq(t, b.one) }
		switch op {
		case model.OpBitAnd:
			out[i] = b.b2i(b.and(one(xs[i]), one(ys[i])))
		case model.OpBitOr:
			out[i] = b.b2i(b.or(one(xs[i]), one(ys[i])))
		case model.OpXor:
			out[i] = b.b2i(b.not(b.eq(xs[i], ys[i])))
		default: // model.OpAndNot
			out[i] = b.b2i(b.and(one(xs[i]), b.not(one(ys[i]))))
		}
	}
	return b.fromBits(out)
}

// shifted returns the bits of x (bits xs) shifted by the count k ≥ 0.
func (b *fb) shifted(op model.BinOp, xs []*smt.Expr, k int) []*smt.Expr {
	out := make([]*smt.Expr, 64)
	for j := range out {
		switch op {
		case model.OpShl:
			out[j] = b.zero
			if j >= k {
				out[j] = xs[j-k]
			}
		case model.OpShr:
			out[j] = xs[63]
			if j+k < 64 {
				out[j] = xs[j+k]
			}
		default: // model.OpShrU
			out[j] = b.zero
			if j+k < 64 {
				out[j] = xs[j+k]
			}
		}
	}
	return out
}

// shift returns x op y for a shift op, and the condition under which it
// faults (a negative count).
func (b *fb) shift(op model.BinOp, x, y *smt.Expr) (val, fail *smt.Expr) {
	vy, cy := y.Int64()
	if vx, ok := x.Int64(); ok && cy {
		v, err := model.Shift(op, vx, vy)
		if err != nil {
			return b.zero, b.tt
		}
		return b.num(v), b.ff
	}
	xs := b.bitsOf(x)
	if cy {
		if vy < 0 {
			return b.zero, b.tt
		}
		return b.fromBits(b.shifted(op, xs, int(min(vy, 64)))), b.ff
	}
	// A count of 64 or more is 64; below, one case per count.
	val = b.fromBits(b.shifted(op, xs, 64))
	for k := 63; k >= 0; k-- {
		val = b.ite(b.eq(y, b.num(int64(k))), b.fromBits(b.shifted(op, xs, k)), val)
	}
	return val, b.lt(y, b.zero)
}
