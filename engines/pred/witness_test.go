package pred

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestEModExact checks the Euclidean remainder by a constant above
// MaxInt64/2, whose correction step a%C + C can leave int64.
func TestEModExact(t *testing.T) {
	tm := newTerms()
	x := tm.Var(dvar{Kind: dMem, I: 0})
	const c = 7_000_000_000_000_000_000
	term := tm.DivMod(tEMod, x, c)
	id := tm.VarIDs(x)[0]
	v := make(valuation, id+1)
	for _, tc := range []struct {
		x     int64
		exact bool
	}{
		{4_446_744_073_709_551_616, false}, // x%c + c = 11,446,744,073,709,551,616: beyond int64
		{2_000_000_000_000_000_000, true},
		{-5, true},
		{math.MinInt64, true},
	} {
		v[id] = tc.x
		got, exact := tm.evalExact(term, v)
		if exact != tc.exact {
			t.Errorf("%d mod %d: exact = %v, want %v", tc.x, int64(c), exact, tc.exact)
		}
		if want := (tc.x%c + c) % c; exact && got != want { // no overflow in the exact cases
			t.Errorf("%d mod %d = %d", tc.x, int64(c), got)
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

// TestKeptModelBeyondInt64 checks that a satisfiable question whose model
// has a value beyond int64 is still answered: the model is not kept, and
// the answer is not an error.
func TestKeptModelBeyondInt64(t *testing.T) {
	tm := newTerms()
	o, err := newOracle(tm)
	if err != nil {
		t.Skip(err)
	}
	defer o.close()
	o.noDiff = true // the questions go to Z3, whose models are kept
	x, y := tm.Var(dvar{Kind: dMem, I: 0}), tm.Var(dvar{Kind: dMem, I: 1})
	// Enough calls that the next satisfiable answer's model is kept.
	for o.calls%keepEvery != keepEvery-1 {
		if _, err := o.sat([]tid{tm.Eq(y, tm.Const(o.calls+10))}); err != nil {
			t.Fatal(err)
		}
	}
	q := []tid{tm.Le(tm.Const(2), y), tm.Le(tm.AddK(y, 1, tm.Const(math.MaxInt64-1)), x)}
	slices.Sort(q)
	if ok, err := o.sat(q); err != nil || !ok {
		t.Errorf("sat(y >= 2 && x >= y + MaxInt64 - 1) = %v, %v; want true", ok, err)
	}
}
