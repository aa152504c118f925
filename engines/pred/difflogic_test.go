package pred

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
)

// TestDiffSatCases checks the difference-logic decision on questions whose
// answers are known, including ones that need a split of a disequality or
// a disjunction, and ones at the ends of int64.
func TestDiffSatCases(t *testing.T) {
	tm := newTerms()
	x, y, z := tm.Var(dvar{Kind: dMem, I: 0}), tm.Var(dvar{Kind: dMem, I: 1}), tm.Var(dvar{Kind: dMem, I: 2})
	c := tm.Const
	tests := []struct {
		name    string
		conj    []tid
		sat     bool
		decided bool
	}{
		{"empty", nil, true, true},
		{"bounds", []tid{tm.Le(c(1), x), tm.Le(x, c(3))}, true, true},
		{"empty interval", []tid{tm.Le(c(4), x), tm.Le(x, c(3))}, false, true},
		{"cycle", []tid{tm.Lt(x, y), tm.Lt(y, z), tm.Lt(z, x)}, false, true},
		{"chain", []tid{tm.Lt(x, y), tm.Lt(y, z), tm.Le(z, tm.AddK(x, 1, c(2)))}, true, true},
		{"tight chain", []tid{tm.Lt(x, y), tm.Lt(y, z), tm.Le(z, tm.AddK(x, 1, c(1)))}, false, true},
		{"equalities", []tid{tm.Eq(x, tm.AddK(y, 1, c(1))), tm.Eq(y, c(5)), tm.Eq(x, c(6))}, true, true},
		{"equalities clash", []tid{tm.Eq(x, tm.AddK(y, 1, c(1))), tm.Eq(y, c(5)), tm.Eq(x, c(7))}, false, true},
		{"disequalities fill a range", []tid{tm.Le(c(0), x), tm.Le(x, c(1)), tm.Not(tm.Eq(x, c(0))), tm.Not(tm.Eq(x, c(1)))}, false, true},
		{"disequality leaves one value", []tid{tm.Le(c(0), x), tm.Le(x, c(2)), tm.Not(tm.Eq(x, c(0))), tm.Not(tm.Eq(x, c(2)))}, true, true},
		{"difference disequality", []tid{tm.Le(x, y), tm.Le(y, x), tm.Not(tm.Eq(x, y))}, false, true},
		{"disjunction", []tid{tm.Or(tm.Le(x, c(0)), tm.Le(c(10), x)), tm.Le(c(5), x)}, true, true},
		{"disjunction refuted", []tid{tm.Or(tm.Le(x, c(0)), tm.Le(c(10), x)), tm.Le(c(5), x), tm.Le(x, c(9))}, false, true},
		{"negated conjunction", []tid{tm.Not(tm.And(tm.Le(c(0), x), tm.Le(x, c(9)))), tm.Le(c(0), x), tm.Le(x, c(9))}, false, true},
		{"false conjunct", []tid{tm.Le(x, y), idFalse}, false, true},
		{"max int64", []tid{tm.Le(c(math.MaxInt64), x), tm.Le(x, c(math.MaxInt64))}, true, true},
		{"min int64", []tid{tm.Le(c(math.MinInt64+1), x), tm.Le(x, c(math.MinInt64+1))}, true, true},
		// A weight or a path sum outside int64: left to Z3.
		{"negated min int64", []tid{tm.Le(c(math.MinInt64), x), tm.Le(x, c(math.MinInt64))}, false, false},
		{"beyond int64", []tid{tm.Le(c(math.MaxInt64), x), tm.Lt(x, y), tm.Le(y, c(math.MaxInt64))}, false, false},
		{"sum", []tid{tm.Le(tm.AddK(x, 1, y), c(3))}, false, false},
		{"product", []tid{tm.Le(tm.Mul(x, y), c(3))}, false, false},
		{"three variables", []tid{tm.Le(tm.AddK(tm.AddK(x, -1, y), 1, z), c(3))}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conj := slices.Clone(tt.conj)
			slices.Sort(conj)
			sat, decided := tm.diffSat(conj)
			if decided != tt.decided || decided && sat != tt.sat {
				t.Errorf("diffSat = %v, decided %v; want %v, decided %v", sat, decided, tt.sat, tt.decided)
			}
		})
	}
}

// TestDiffSat compares the difference-logic decision with Z3 on random
// questions over three variables: bounds, differences, equalities,
// disequalities, strict comparisons, disjunctions and negated
// conjunctions, with small constants and constants at the ends of int64,
// and some questions outside difference logic, which it must leave to
// Z3.
func TestDiffSat(t *testing.T) {
	if !smt.Available {
		t.Skip("built without Z3")
	}
	tm := newTerms()
	o, err := newOracle(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	o.noDiff = true
	vars := []tid{tm.Var(dvar{Kind: dMem, I: 0}), tm.Var(dvar{Kind: dReg, P: 1, I: 0}), tm.Var(dvar{Kind: dBuf, P: 0, I: 1})}
	r := rand.New(rand.NewPCG(7, 11))
	constant := func() int64 {
		switch r.IntN(12) {
		case 0:
			return math.MaxInt64 - r.Int64N(3)
		case 1:
			return math.MinInt64 + r.Int64N(3)
		case 2:
			return 1<<62 - r.Int64N(3)
		default:
			return r.Int64N(9) - 4
		}
	}
	var literal func(depth int) tid
	literal = func(depth int) tid {
		a, b := vars[r.IntN(len(vars))], vars[r.IntN(len(vars))]
		k := tm.Const(constant())
		switch n := r.IntN(12); {
		case n < 3:
			return tm.Le(a, tm.AddK(b, 1, k))
		case n < 5:
			return tm.Le(k, a)
		case n == 5:
			return tm.Lt(a, b)
		case n == 6:
			return tm.Eq(a, tm.AddK(b, 1, k))
		case n == 7:
			return tm.Not(tm.Eq(a, k))
		case n == 8:
			return tm.Not(tm.Eq(a, tm.AddK(b, 1, k)))
		case n == 9 && depth == 0:
			return tm.Or(literal(1), literal(1))
		case n == 10 && depth == 0:
			return tm.Not(tm.And(literal(1), literal(1)))
		default:
			if r.IntN(4) == 0 {
				return tm.Le(tm.AddK(a, 1, b), k) // a sum: not difference logic
			}
			return tm.Le(a, k)
		}
	}
	decided, sats := 0, 0
	const n = 3000
	for i := range n {
		var conj []tid
		for range 1 + r.IntN(7) {
			conj = append(conj, literal(0))
		}
		slices.Sort(conj)
		conj = slices.Compact(conj)
		want, err := o.sat(conj)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := tm.diffSat(conj)
		if !ok {
			continue
		}
		decided++
		if got {
			sats++
		}
		if got != want {
			var s []string
			for _, x := range conj {
				s = append(s, tm.String(x, dvarName))
			}
			t.Fatalf("question %d %q: difference logic says %v, Z3 %v", i, s, got, want)
		}
	}
	t.Logf("%d of %d questions decided without Z3, %d satisfiable", decided, n, sats)
	if decided < n/2 || sats == 0 || sats == decided {
		t.Errorf("%d of %d questions decided, %d satisfiable: the generator no longer covers both answers", decided, n, sats)
	}
}

// TestNormalisationAtInt64Ends checks that dividing an atom by the gcd of
// its coefficients, and making an equality's first coefficient positive,
// keep its meaning when its constant is MinInt64: ⌈c/g⌉ and -c used to
// be computed by negating c, which overflowed and turned 2x + MinInt64 ≤ 0
// (true for every x ≤ 2^62) into x ≤ -2^62.
func TestNormalisationAtInt64Ends(t *testing.T) {
	tm := newTerms()
	x, y := tm.Var(dvar{Kind: dMem, I: 0}), tm.Var(dvar{Kind: dMem, I: 1})
	min := tm.Const(math.MinInt64)
	atoms := []struct {
		name string
		atom tid
		want func(x, y int64) bool
	}{
		{"2x + MinInt64 <= 0", tm.Le(tm.AddK(tm.Scale(2, x), 1, min), tm.Const(0)),
			func(x, _ int64) bool { return x <= 1<<62 }},
		{"-2x + MinInt64 <= 0", tm.Le(tm.AddK(tm.Scale(-2, x), 1, min), tm.Const(0)),
			func(x, _ int64) bool { return x >= -(1 << 62) }},
		{"-x + MinInt64 == 0 would negate MinInt64", tm.Eq(tm.AddK(tm.Scale(-1, x), 1, min), tm.Const(0)),
			func(x, _ int64) bool { return x == math.MinInt64 }},
		{"-2x + 2y + MinInt64 == 0", tm.Eq(tm.AddK(tm.AddK(tm.Scale(-2, x), 2, y), 1, min), tm.Const(0)),
			func(x, y int64) bool { return y-x == 1<<62 }},
	}
	ids := map[int32]int{tm.VarIDs(x)[0]: 0, tm.VarIDs(y)[0]: 1}
	for _, a := range atoms {
		exact := 0
		for _, v := range [][2]int64{{0, 0}, {1 << 62, 0}, {1<<62 + 1, 0}, {-(1 << 62), 0}, {-(1 << 62) + 1, 0},
			{math.MinInt64, 0}, {math.MinInt64 + 1, 0}, {0, 1 << 62}, {1, 1 << 62}, {-(1 << 62), 0}} {
			val := make(valuation, 2)
			for id, i := range ids {
				for int(id) >= len(val) {
					val = append(val, 0)
				}
				val[id] = v[i]
			}
			got, ok := tm.evalExact(a.atom, val)
			if !ok {
				continue // beyond int64 on the way
			}
			exact++
			if want := a.want(v[0], v[1]); (got != 0) != want {
				t.Errorf("%s, normalised to %s, at x=%d y=%d: %v, want %v", a.name, tm.String(a.atom, dvarName), v[0], v[1], got != 0, want)
			}
		}
		if exact < 3 {
			t.Errorf("%s: only %d points evaluated exactly", a.name, exact)
		}
	}
}
