package pred

import (
	"errors"
	"fmt"
	"math/bits"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// The bitwise operators and shifts in integer terms. Where one operand is
// a constant the encoding is exact for every integer operand, read as its
// infinite two's complement (the int64 one for int64 values): bit i of x is
// the Euclidean remainder of ⌊x / 2^i⌋ by 2, a mask 2^k-1 keeps x mod 2^k,
// and |, ^ and &^ follow from & by x|c = x + c - x&c, x^c = x + c - 2(x&c)
// and x&^c = x & ^c. Shifts by a constant are products with and Euclidean
// quotients by powers of two. A bitwise operator on two values known only
// at run time, a shift by such a count and a shift that always faults (by a
// negative constant, which the extractor turns into a panic before) are not
// encoded: the analysis is Inconclusive and names them (errNotEncoded).

// errNotEncoded marks a construct of the program that the engine cannot
// encode exactly; the analysis ends Inconclusive.
var errNotEncoded = errors.New("not encoded by the predicate engine")

// notEncodedReport is the Inconclusive report of an analysis under m,
// started at start, of a program with a construct err names.
func notEncodedReport(m model.Model, start time.Time, err error) *Report {
	res := &engines.Result{Status: engines.Inconclusive, Model: m, Reason: err.Error() +
		"; use the explicit or sb engine, or bound the data with //fencecheck:range LO..HI so that they apply"}
	res.Stats.Duration = time.Since(start)
	return &Report{Result: res}
}

// floorPow2 returns ⌊x / 2^k⌋ for 0 ≤ k ≤ 62.
func (t *terms) floorPow2(x tid, k int) tid {
	if k == 0 {
		return x
	}
	m := int64(1) << k
	return t.DivMod(tDiv, t.AddK(x, -1, t.DivMod(tEMod, x, m)), m)
}

// bitOf returns bit i (0 ≤ i ≤ 63) of x's two's complement, 0 or 1.
func (t *terms) bitOf(x tid, i int) tid {
	if i == 63 {
		return t.Ite(t.Lt(x, t.Const(0)), t.Const(1), t.Const(0))
	}
	return t.DivMod(tEMod, t.floorPow2(x, i), 2)
}

// andConst returns x & c.
func (t *terms) andConst(x tid, c int64) tid {
	switch {
	case c == 0:
		return t.Const(0)
	case c == -1:
		return x
	case c < 0:
		// x & c = x - x&^c, and ^c ≥ 0.
		return t.AddK(x, -1, t.andConst(x, ^c))
	}
	if k := bits.Len64(uint64(c)); c&(c+1) == 0 && k <= model.MaxWrapBits {
		return t.wrap(x, uint8(k), false)
	}
	sum := t.Const(0)
	for i := 0; i < 63; i++ {
		if c>>i&1 != 0 {
			sum = t.AddK(sum, int64(1)<<i, t.bitOf(x, i))
		}
	}
	return sum
}

// bitop returns x op y for a bitwise operator or a shift.
func (t *terms) bitop(op model.BinOp, x, y tid) (tid, error) {
	cx, okx := t.constOf(x)
	cy, oky := t.constOf(y)
	if okx && oky {
		v, err := model.Eval(model.Bin(op, model.C(cx), model.C(cy)), &model.Env{})
		if err != nil {
			return 0, fmt.Errorf("%d %v %d, which faults (%v), is %w", cx, op, cy, err, errNotEncoded)
		}
		return t.Const(v), nil
	}
	switch op {
	case model.OpShl, model.OpShr, model.OpShrU:
		if !oky {
			return 0, fmt.Errorf("a shift (%v) by a count known only at run time is %w", op, errNotEncoded)
		}
		return t.shiftConst(op, x, cy)
	case model.OpAndNot:
		if oky {
			return t.andConst(x, ^cy), nil
		}
		// c &^ y = c & ^y = c & (-1 - y).
		return t.bitop(model.OpBitAnd, x, t.AddK(t.Const(-1), -1, y))
	}
	if okx {
		x, y, cy = y, x, cx
	} else if !oky {
		return 0, fmt.Errorf("the bitwise operator %v of two values known only at run time is %w", op, errNotEncoded)
	}
	a := t.andConst(x, cy)
	switch op {
	case model.OpBitAnd:
		return a, nil
	case model.OpBitOr:
		return t.AddK(t.AddK(x, 1, t.Const(cy)), -1, a), nil
	case model.OpXor:
		return t.AddK(t.AddK(x, 1, t.Const(cy)), -2, a), nil
	}
	return 0, fmt.Errorf("unknown operator %v", op)
}

// shiftConst returns x op k for a shift op and a constant count k.
func (t *terms) shiftConst(op model.BinOp, x tid, k int64) (tid, error) {
	switch {
	case k < 0:
		return 0, fmt.Errorf("a shift by the negative count %d, which faults, is %w", k, errNotEncoded)
	case k == 0:
		return x, nil
	}
	switch op {
	case model.OpShl:
		switch {
		case k >= 64:
			return t.Const(0), nil
		case k == 1:
			// x + x, as the engine adds 64-bit values.
			return t.Scale(2, x), nil
		}
		// The 64-k low bits of x, read as signed, times 2^k.
		return t.Scale(int64(1)<<k, t.wrap(x, uint8(64-k), true)), nil
	case model.OpShr:
		if k >= 63 {
			return t.Ite(t.Lt(x, t.Const(0)), t.Const(-1), t.Const(0)), nil
		}
		return t.floorPow2(x, int(k)), nil
	}
	// OpShrU: a negative x stands for x + 2^64.
	switch {
	case k >= 64:
		return t.Const(0), nil
	case k == 63:
		return t.bitOf(x, 63), nil
	case k == 1:
		return 0, fmt.Errorf("a logical shift of a uint64 by 1 is %w", errNotEncoded)
	}
	f := t.floorPow2(x, int(k))
	return t.Ite(t.Lt(x, t.Const(0)), t.AddK(f, 1, t.Const(int64(1)<<(64-k))), f), nil
}
