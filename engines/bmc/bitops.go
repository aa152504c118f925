package bmc

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
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
	// The engine's integers are mathematical and the model's int64 (see
	// the package documentation): x is the value of its bits.
	b.side = append(b.side, b.z.Eq(x, b.fromBits(out)))
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
	if r, ok := b.bitwiseConst(op, x, y); ok {
		return r
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

// bitwiseConst returns x op y when one operand is a constant, decomposing
// only the low bits of the other that the constant selects: x & c for c ≥ 0
// keeps the bits of x mod 2^len(c) that c sets, x & c = x - x&^c for c < 0,
// and x|c = x + c - x&c, x^c = x + c - 2(x&c), x&^c = x & ^c.
func (b *fb) bitwiseConst(op model.BinOp, x, y *smt.Expr) (*smt.Expr, bool) {
	vy, cy := y.Int64()
	if vx, cx := x.Int64(); cx && !cy {
		if op == model.OpAndNot {
			// c &^ y = c & ^y.
			return b.bitwiseConst(model.OpBitAnd, b.z.Sub(b.num(-1), y), x)
		}
		x, vy, cy = y, vx, true
	}
	if !cy {
		return nil, false
	}
	if op == model.OpAndNot {
		op, vy = model.OpBitAnd, ^vy
	}
	a := b.andConst(x, vy)
	switch op {
	case model.OpBitOr:
		return b.z.Sub(b.z.Add(x, b.num(vy)), a), true
	case model.OpXor:
		return b.z.Sub(b.z.Add(x, b.num(vy)), b.z.Mul(b.num(2), a)), true
	}
	return a, true
}

// andConst returns x & c.
func (b *fb) andConst(x *smt.Expr, c int64) *smt.Expr {
	switch {
	case c == 0:
		return b.zero
	case c == -1:
		return x
	case c < 0:
		return b.z.Sub(x, b.andConst(x, ^c))
	}
	n := bits.Len64(uint64(c))
	if n > 62 {
		return b.fromBits(b.maskBits(b.bitsOf(x), c))
	}
	lo := b.z.Mod(x, b.num(1<<n)) // Euclidean: the n low bits of x
	if c == 1<<n-1 {
		return lo
	}
	id := len(b.side)
	low := make([]*smt.Expr, 64)
	for i := range low {
		low[i] = b.zero
		if i < n {
			low[i] = b.z.Int(fmt.Sprintf("lbit%d_%d", id, i))
			b.side = append(b.side, b.z.Le(b.zero, low[i]), b.z.Le(low[i], b.one))
		}
	}
	b.side = append(b.side, b.z.Eq(lo, b.fromBits(low)))
	return b.fromBits(b.maskBits(low, c))
}

// maskBits returns bits with those c clears set to 0.
func (b *fb) maskBits(bits []*smt.Expr, c int64) []*smt.Expr {
	out := make([]*smt.Expr, len(bits))
	for i := range out {
		out[i] = b.zero
		if uint64(c)>>i&1 != 0 {
			out[i] = bits[i]
		}
	}
	return out
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
