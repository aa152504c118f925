package pred

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEvalExact checks the evaluation behind the oracle's kept valuations:
// it agrees with Eval wherever no intermediate value leaves int64, and
// refuses (exact false) where one does, since Z3 computes with unbounded
// integers and a wrapped value could make a question look satisfiable.
func TestEvalExact(t *testing.T) {
	tm := newTerms()
	x, y := tm.Var(dvar{Kind: dMem, I: 0}), tm.Var(dvar{Kind: dMem, I: 1})
	ids := map[int32]int{}
	for i, v := range []tid{x, y} {
		ids[tm.VarIDs(v)[0]] = i
	}
	big := tm.Const(math.MaxInt64 / 2)
	terms := []tid{
		tm.AddK(x, 3, y),
		tm.Mul(x, y),
		tm.DivMod(tDiv, x, 7),
		tm.DivMod(tMod, y, -5),
		tm.DivMod(tEMod, x, 6),
		tm.Le(x, y),
		tm.Eq(tm.AddK(x, 1, y), tm.Const(4)),
		tm.And(tm.Le(x, y), tm.Not(tm.Eq(x, tm.Const(0)))),
		tm.Or(tm.Lt(x, tm.Const(-3)), tm.Le(y, x)),
		tm.Ite(tm.Le(x, y), tm.AddK(x, 2, y), tm.Mul(x, x)),
		tm.AddK(big, 3, x),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		vals := [2]int64{r.Int64N(41) - 20, r.Int64N(41) - 20}
		v := make(valuation, 2)
		for id, i := range ids {
			for int(id) >= len(v) {
				v = append(v, 0)
			}
			v[id] = vals[i]
		}
		val := func(d dvar) int64 { return vals[d.I] }
		for _, term := range terms {
			got, exact := tm.evalExact(term, v)
			if !exact {
				t.Fatalf("%s at %v: not exact", tm.String(term, dvarName), vals)
			}
			if want := tm.Eval(term, val); got != want {
				t.Fatalf("%s at %v = %d, want %d", tm.String(term, dvarName), vals, got, want)
			}
		}
	}
	// Values that overflow.
	v := make(valuation, 2)
	for id, i := range ids {
		for int(id) >= len(v) {
			v = append(v, 0)
		}
		v[id] = []int64{math.MaxInt64, math.MinInt64}[i]
	}
	for _, term := range []tid{
		tm.AddK(x, 1, tm.Const(1)),
		tm.AddK(y, -1, tm.Const(1)),
		tm.Mul(x, y),
		tm.Scale(2, x),
		tm.Le(tm.AddK(x, 1, tm.Const(5)), tm.Const(0)),
		tm.AddK(big, 3, x),
	} {
		if got, exact := tm.evalExact(term, v); exact {
			t.Errorf("%s at (MaxInt64, MinInt64) = %d, claimed exact", tm.String(term, dvarName), got)
		}
	}
}

// TestAddMulExact checks the overflow tests at the edges of int64.
func TestAddMulExact(t *testing.T) {
	for _, c := range []struct {
		a, b     int64
		sum, mul bool // whether each fits
	}{
		{1, 2, true, true},
		{math.MaxInt64, 1, false, true},
		{math.MinInt64, -1, false, false},
		{math.MinInt64, 1, true, true},
		{math.MaxInt64, -1, true, true},
		{1 << 32, 1 << 30, true, true},
		{1 << 32, 1 << 31, true, false}, // 2^63
		{-1 << 31, 1 << 32, true, true},
		{0, math.MinInt64, true, true},
	} {
		if _, ok := addExact(c.a, c.b); ok != c.sum {
			t.Errorf("addExact(%d, %d) fits = %v, want %v", c.a, c.b, ok, c.sum)
		}
		if _, ok := mulExact(c.a, c.b); ok != c.mul {
			t.Errorf("mulExact(%d, %d) fits = %v, want %v", c.a, c.b, ok, c.mul)
		}
	}
}
