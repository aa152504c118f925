package model_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

func f64(f float64) int64 { return int64(math.Float64bits(f)) }
func f32(f float32) int64 { return int64(math.Float32bits(f)) }

// TestEvalFloatCases checks the operations on the values where IEEE 754 and
// Go's implementation matter: signed zeros, infinities, NaNs and their
// payloads, rounding, and conversions out of range.
func TestEvalFloatCases(t *testing.T) {
	negZero := f64(math.Copysign(0, -1))
	nan1 := int64(0x7ff0000000000001) // a signalling NaN with payload 1
	tests := []struct {
		name string
		op   model.FloatOp
		bits uint8
		x, y int64
		want int64
	}{
		{"1.5+2.25", model.FAdd, 64, f64(1.5), f64(2.25), f64(3.75)},
		{"0.1+0.2 rounds", model.FAdd, 64, f64(0.1), f64(0.2), f64(0.30000000000000004)},
		{"-0 + -0 is -0", model.FAdd, 64, negZero, negZero, negZero},
		{"-0 + 0 is +0", model.FAdd, 64, negZero, 0, 0},
		{"1 - 1 is +0", model.FSub, 64, f64(1), f64(1), 0},
		{"-1 * 0 is -0", model.FMul, 64, f64(-1), 0, negZero},
		{"1 / -0 is -Inf", model.FDiv, 64, f64(1), negZero, f64(math.Inf(-1))},
		{"0/0 is x86's default NaN", model.FDiv, 64, 0, 0, -0x8000000000000},
		{"Inf-Inf is the default NaN", model.FSub, 64, f64(math.Inf(1)), f64(math.Inf(1)), -0x8000000000000},
		{"a NaN operand is quietened", model.FAdd, 64, f64(1), nan1, 0x7ff8000000000001},
		{"the first NaN operand wins", model.FMul, 64, 0x7ff8000000000001, -0x7fffffffffffe, 0x7ff8000000000001},
		{"neg flips the sign of 0", model.FNeg, 64, 0, 0, negZero},
		{"neg flips the sign of a NaN", model.FNeg, 64, 0x7ff8000000000000, 0, -0x8000000000000},
		{"float32 rounding", model.FAdd, 32, f32(16777216), f32(1), f32(16777216)},
		{"float32 0/0", model.FDiv, 32, 0, 0, 0xffc00000},
		{"float32 neg", model.FNeg, 32, f32(1), 0, f32(-1)},
		{"NaN == NaN is false", model.FEq, 64, 0x7ff8000000000000, 0x7ff8000000000000, 0},
		{"NaN != NaN is true", model.FNe, 64, 0x7ff8000000000000, 0x7ff8000000000000, 1},
		{"NaN < 1 is false", model.FLt, 64, 0x7ff8000000000000, f64(1), 0},
		{"NaN >= 1 is false", model.FGe, 64, 0x7ff8000000000000, f64(1), 0},
		{"-0 == +0", model.FEq, 64, negZero, 0, 1},
		{"-0 < +0 is false", model.FLt, 64, negZero, 0, 0},
		{"-1 < 1 (bit patterns compare the other way)", model.FLt, 64, f64(-1), f64(1), 1},
		{"float32 -2 <= -1", model.FLe, 32, f32(-2), f32(-1), 1},
		{"int64 max to float64 rounds up", model.FFromInt, 64, math.MaxInt64, 0, f64(twoTo63)},
		{"uint64 max to float64", model.FFromUint, 64, -1, 0, f64(18446744073709551615.0)},
		{"16777217 to float32 rounds to even", model.FFromInt, 32, 16777217, 0, f32(16777216)},
		{"float32 to float64 is exact", model.FFromFloat, 64, f32(0.1), 0, f64(float64(float32(0.1)))},
		{"float64 to float32 rounds", model.FFromFloat, 32, f64(0.1), 0, f32(0.1)},
		{"float32 signalling NaN widens quietened", model.FFromFloat, 64, 0x7f800001, 0, 0x7ff8000020000000},
		{"float64 NaN narrows quietened", model.FFromFloat, 32, 0x7ff8000000000001, 0, 0x7fc00000},
		{"-1.5 to int64 truncates", model.FToInt64, 64, f64(-1.5), 0, -1},
		{"NaN to int64", model.FToInt64, 64, 0x7ff8000000000000, 0, math.MinInt64},
		{"1e30 to int64", model.FToInt64, 64, f64(1e30), 0, math.MinInt64},
		{"3e9 to int32", model.FToInt32, 64, f64(3e9), 0, math.MinInt32},
		{"-2147483648.5 to int32", model.FToInt32, 64, f64(-2147483648.5), 0, math.MinInt32},
		{"9.3e18 to uint64", model.FToUint64, 64, f64(9.3e18), 0, -9146744073709551616},
		{"-1.5 to uint64", model.FToUint64, 64, f64(-1.5), 0, -1},
		{"NaN to uint64", model.FToUint64, 64, 0x7ff8000000000000, 0, math.MinInt64},
		{"-9.3e18 to uint64", model.FToUint64, 64, f64(-9.3e18), 0, math.MinInt64},
	}
	for _, tc := range tests {
		got, err := model.EvalFloat(tc.op, tc.bits, tc.x, tc.y)
		if err != nil || got != tc.want {
			t.Errorf("%s: %s(%#x, %#x) = %#x, %v; want %#x", tc.name, tc.op.Name(tc.bits), tc.x, tc.y, got, err, tc.want)
		}
	}
}

const twoTo63 = 9223372036854775808.0

// interesting returns a float64 of a class chosen at random: small
// integers, halves, powers of two, huge values, infinities, NaNs with
// payloads, zeros of either sign, subnormals, or random bits.
func interesting(r *rand.Rand) float64 {
	switch r.IntN(10) {
	case 0:
		return float64(r.IntN(21) - 10)
	case 1:
		return float64(r.IntN(41)-20) / 2
	case 2:
		return math.Ldexp(1, r.IntN(140)-70) * float64(1-2*r.IntN(2))
	case 3:
		return []float64{math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, math.SmallestNonzeroFloat64, math.MaxFloat64}[r.IntN(6)]
	case 4:
		return math.Float64frombits(0x7ff0000000000000 | r.Uint64()&0x800fffffffffffff | 1)
	case 5:
		return (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(200)-30)
	case 6:
		return float64(float32(r.NormFloat64()))
	}
	return math.Float64frombits(r.Uint64())
}

//go:noinline
func goArith(op model.FloatOp, a, b float64) float64 {
	switch op {
	case model.FAdd:
		return a + b
	case model.FSub:
		return a - b
	case model.FMul:
		return a * b
	}
	return a / b
}

//go:noinline
func goArith32(op model.FloatOp, a, b float32) float32 {
	switch op {
	case model.FAdd:
		return a + b
	case model.FSub:
		return a - b
	case model.FMul:
		return a * b
	}
	return a / b
}

//go:noinline
func goConv(f float64) (int64, int32, uint64, float32) {
	return int64(f), int32(f), uint64(f), float32(f)
}

// TestEvalFloatAgainstGo compares the evaluator with the arithmetic and the
// conversions of the Go program running the test, on amd64 (where the
// evaluator follows gc bit for bit) for random operands of every class. Two
// NaN operands are left out: which payload gc's code returns then depends
// on the order its register allocator gives the operands.
func TestEvalFloatAgainstGo(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the evaluator follows gc's code on amd64")
	}
	r := rand.New(rand.NewPCG(29, 3))
	for i := 0; i < 20000; i++ {
		a, b := interesting(r), interesting(r)
		if math.IsNaN(a) && math.IsNaN(b) {
			continue
		}
		op := model.FloatOp(r.IntN(4))
		if got, want := mustEval(t, op, 64, f64(a), f64(b)), f64(goArith(op, a, b)); got != want {
			t.Fatalf("%s(%v, %v) = %#x, Go computes %#x", op.Name(64), a, b, got, want)
		}
		a32, b32 := float32(a), float32(b)
		if got, want := mustEval(t, op, 32, f32(a32), f32(b32)), f32(goArith32(op, a32, b32)); got != want {
			t.Fatalf("%s(%v, %v) = %#x, Go computes %#x", op.Name(32), a32, b32, got, want)
		}
		for cmp := model.FEq; cmp <= model.FGe; cmp++ {
			want := map[model.FloatOp]bool{model.FEq: a == b, model.FNe: a != b, model.FLt: a < b,
				model.FLe: a <= b, model.FGt: a > b, model.FGe: a >= b}[cmp]
			if got := mustEval(t, cmp, 64, f64(a), f64(b)); (got == 1) != want {
				t.Fatalf("%s(%v, %v) = %d", cmp.Name(64), a, b, got)
			}
		}
		i64, i32, u64, n32 := goConv(a)
		for _, c := range []struct {
			op   model.FloatOp
			bits uint8
			want int64
		}{{model.FToInt64, 64, i64}, {model.FToInt32, 64, int64(i32)}, {model.FToUint64, 64, int64(u64)}, {model.FFromFloat, 32, f32(n32)}} {
			if got := mustEval(t, c.op, c.bits, f64(a), 0); got != c.want {
				t.Fatalf("%s(%v) = %#x, Go computes %#x", c.op.Name(c.bits), a, got, c.want)
			}
		}
		n := int64(r.Uint64()) >> r.IntN(64)
		if got, want := mustEval(t, model.FFromInt, 64, n, 0), f64(float64(n)); got != want {
			t.Fatalf("itof64(%d) = %#x, want %#x", n, got, want)
		}
		if got, want := mustEval(t, model.FFromUint, 32, n, 0), f32(float32(uint64(n))); got != want {
			t.Fatalf("utof32(%d) = %#x, want %#x", n, got, want)
		}
	}
}

func mustEval(t *testing.T, op model.FloatOp, bits uint8, x, y int64) int64 {
	t.Helper()
	v, err := model.EvalFloat(op, bits, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFloatExprRoundTrip checks that float operations print in the native
// format and read back as the same expression.
func TestFloatExprRoundTrip(t *testing.T) {
	src := `program "floats"

var x : int = 0

process P0 {
  reg $a : int = 0
  reg $b : int = 0
  locs L0 L1 L2 L3 L4
  L0 -> L1 : read $a := x
  L1 -> L2 : $b := fadd64($a, 4609434218613702656)
  L2 -> L3 : assume flt64(ftof64(ftof32($b)), itof64(3)) == 1
  L3 -> L4 : write x := fneg32(f64toi32($b))
}
`
	p, err := native.Parse("floats.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := native.Format(p)
	q, err := native.Parse("floats.fcm", out)
	if err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if string(native.Format(q)) != string(out) {
		t.Fatalf("not a fixed point:\n%s\n%s", out, native.Format(q))
	}
	var n int
	for _, tr := range q.Procs[0].Trans {
		model.WalkExpr(tr.Op.Expr, func(e model.Expr) {
			if _, ok := e.(model.Float); ok {
				n++
			}
		})
	}
	if n != 7 {
		t.Fatalf("read %d float operations, want 7:\n%s", n, out)
	}
}

// TestFloatQualify checks that the rewriting of blocked conditions reaches
// the operands of float operations.
func TestFloatQualify(t *testing.T) {
	e := model.F(model.FLt, 64, model.R(0), model.F(model.FNeg, 64, model.R(1), nil))
	got := model.Qualify(e, 2)
	regs := 0
	model.WalkExpr(got, func(e model.Expr) {
		if r, ok := e.(model.RegRef); ok {
			regs++
			if r.Proc != 2 {
				t.Errorf("register %d of process %d in %#v", r.Reg, r.Proc, got)
			}
		}
	})
	if regs != 2 {
		t.Errorf("%d registers in %#v, want 2", regs, got)
	}
}
