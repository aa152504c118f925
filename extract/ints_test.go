package extract

import (
	"go/token"
	"go/types"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// integer is every integer type the lowering represents.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// sample returns a value of T: an edge of its range (0, ±1, the extremes)
// or random bits.
func sample[T integer](r *rand.Rand) T {
	switch r.IntN(6) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return ^T(0) // -1, or the largest unsigned value
	case 3:
		var x T
		return ^x >> 1 // the largest signed value, or half the unsigned range
	case 4:
		var x T
		return ^(^x >> 1) // the smallest signed value, or 2^(w-1)
	}
	return T(r.Uint64())
}

// repr is v as the model holds it: its int64 value, or for uint64 its bit
// pattern.
func repr[T integer](v T) int64 { return int64(v) }

// goBinOp applies op to x and y with Go's own arithmetic: the oracle.
func goBinOp[T integer](op token.Token, x, y T) int64 {
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case token.ADD:
		return repr(x + y)
	case token.SUB:
		return repr(x - y)
	case token.MUL:
		return repr(x * y)
	case token.QUO:
		return repr(x / y)
	case token.REM:
		return repr(x % y)
	case token.EQL:
		return b(x == y)
	case token.NEQ:
		return b(x != y)
	case token.LSS:
		return b(x < y)
	case token.LEQ:
		return b(x <= y)
	case token.GTR:
		return b(x > y)
	case token.GEQ:
		return b(x >= y)
	}
	panic("unknown operator")
}

func eval(t *testing.T, e model.Expr, regs ...int64) int64 {
	t.Helper()
	v, err := model.Eval(e, &model.Env{Regs: regs})
	if err != nil {
		t.Fatalf("%s: %v", model.FormatExpr(e, nil, nil), err)
	}
	return v
}

// checkOps compares the lowering of every binary and unary operator, on
// registers and on constants, with Go's arithmetic on random values of T.
func checkOps[T integer](t *testing.T, r *rand.Rand, typ types.Type) {
	ops := []token.Token{token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
		token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ}
	for range 3000 {
		x, y := sample[T](r), sample[T](r)
		op := ops[r.IntN(len(ops))]
		if (op == token.QUO || op == token.REM) && y == 0 {
			continue
		}
		want := goBinOp(op, x, y)
		for _, args := range [][2]model.Expr{
			{model.R(0), model.R(1)},
			{model.C(repr(x)), model.R(1)},
			{model.R(0), model.C(repr(y))},
		} {
			e, ok := runBinOp(op, args[0], args[1], typ, typ)
			if !ok {
				t.Fatalf("%v %v not lowered", typ, op)
			}
			if got := eval(t, e, repr(x), repr(y)); got != want {
				t.Errorf("%v: %v %v %v = %d in the model (%s), Go says %d", typ, x, op, y, got, model.FormatExpr(e, nil, nil), want)
			}
		}
		// Shifts by constant counts, masks, negation and complement.
		k := int64(r.IntN(72))
		for _, sh := range []struct {
			op   token.Token
			want T
		}{{token.SHL, x << k}, {token.SHR, x >> k}} {
			e, ok := runBinOp(sh.op, model.R(0), model.C(k), typ, types.Typ[types.Uint])
			if !ok {
				t.Fatalf("%v %v %d not lowered", typ, sh.op, k)
			}
			if got := eval(t, e, repr(x)); got != repr(sh.want) {
				t.Errorf("%v: %v %v %d = %d in the model (%s), Go says %d", typ, x, sh.op, k, got, model.FormatExpr(e, nil, nil), repr(sh.want))
			}
		}
		if m := int64(1)<<(1+r.IntN(8)) - 1; T(m) > 0 {
			e, ok := runBinOp(token.AND, model.R(0), model.C(m), typ, typ)
			if !ok {
				t.Fatalf("%v & %d not lowered", typ, m)
			}
			if got, want := eval(t, e, repr(x)), repr(x&T(m)); got != want {
				t.Errorf("%v: %v & %d = %d in the model, Go says %d", typ, x, m, got, want)
			}
		}
		if got, want := eval(t, wrapTo(model.Bin(model.OpSub, model.C(0), model.R(0)), typ), repr(x)), repr(-x); got != want {
			t.Errorf("%v: -%v = %d in the model, Go says %d", typ, x, got, want)
		}
		if got, want := eval(t, complement(model.R(0), typ), repr(x)), repr(^x); got != want {
			t.Errorf("%v: ^%v = %d in the model, Go says %d", typ, x, got, want)
		}
	}
}

// checkConversions compares the lowering of conversions from F to every
// integer type with Go's conversions.
func checkConversions[F integer](t *testing.T, r *rand.Rand, from types.Type) {
	for range 500 {
		x := sample[F](r)
		for _, c := range []struct {
			to   types.BasicKind
			want int64
		}{
			{types.Int8, int64(int8(x))}, {types.Int16, int64(int16(x))}, {types.Int32, int64(int32(x))},
			{types.Int64, int64(x)}, {types.Uint8, int64(uint8(x))}, {types.Uint16, int64(uint16(x))},
			{types.Uint32, int64(uint32(x))}, {types.Uint64, int64(uint64(x))},
		} {
			e := convertTo(model.R(0), from, types.Typ[c.to])
			if got := eval(t, e, repr(x)); got != c.want {
				t.Errorf("%v(%v of %v) = %d in the model (%s), Go says %d", types.Typ[c.to], x, from, got, model.FormatExpr(e, nil, nil), c.want)
			}
		}
	}
}

// TestIntegersAsGo checks, for random operands of every width and
// signedness, that the expressions the lowering builds compute what Go
// computes: wrapping arithmetic, truncating conversions, unsigned 64-bit
// comparisons, division and shifts on bit patterns.
func TestIntegersAsGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 64))
	checkOps[int8](t, r, types.Typ[types.Int8])
	checkOps[uint8](t, r, types.Typ[types.Uint8])
	checkOps[int16](t, r, types.Typ[types.Int16])
	checkOps[uint16](t, r, types.Typ[types.Uint16])
	checkOps[int32](t, r, types.Typ[types.Int32])
	checkOps[uint32](t, r, types.Typ[types.Uint32])
	checkOps[int64](t, r, types.Typ[types.Int64])
	checkOps[uint64](t, r, types.Typ[types.Uint64])
	checkConversions[int8](t, r, types.Typ[types.Int8])
	checkConversions[uint8](t, r, types.Typ[types.Uint8])
	checkConversions[int16](t, r, types.Typ[types.Int16])
	checkConversions[uint32](t, r, types.Typ[types.Uint32])
	checkConversions[int64](t, r, types.Typ[types.Int64])
	checkConversions[uint64](t, r, types.Typ[types.Uint64])
}

// TestWrapAbs checks the domain inference of a wrap against its values.
func TestWrapAbs(t *testing.T) {
	for _, c := range []struct {
		in     abs
		w      uint8
		signed bool
		want   abs
	}{
		{abs{set: []int64{1, 2}}, 8, false, abs{set: []int64{1, 2}}},
		{abs{set: []int64{255, 256}}, 8, false, abs{set: []int64{0, 255}}},
		{abs{set: []int64{127, 128}}, 8, true, abs{set: []int64{-128, 127}}},
		{abs{ival: true, lo: 0, hi: 1000}, 8, false, topAbs},
		{abs{ival: true, lo: 0, hi: 1000}, 4, false, abs{ival: true, lo: 0, hi: 15}},
		{topAbs, 32, false, topAbs},
	} {
		if got := wrapAbs(c.in, c.w, c.signed); !got.equal(c.want) {
			t.Errorf("wrapAbs(%+v, %d, %v) = %+v, want %+v", c.in, c.w, c.signed, got, c.want)
		}
	}
}

// TestUnsignedDivisionByConstant checks the lowering of uint64 x / c and
// x % c for constant divisors that are not powers of two, small and up to
// 2^62, on the values where the sign bit and the carries change: each
// result against Go's, and no intermediate value of the expression outside
// the int64 range (the SMT engines compute with mathematical integers).
func TestUnsignedDivisionByConstant(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 100))
	divisors := []uint64{3, 5, 6, 7, 10, 100, 1000, 1<<32 + 1, 1<<62 - 1, 1 << 62}
	xs := []uint64{0, 1, 99, 100, 101, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64, math.MaxUint64 - 1, math.MaxUint64 - 15, math.MaxUint64 - 16}
	for range 2000 {
		xs = append(xs, r.Uint64())
	}
	for _, c := range divisors {
		for _, x := range xs {
			for _, op := range []token.Token{token.QUO, token.REM} {
				e, ok := runBinOp(op, model.R(0), model.C(int64(c)), types.Typ[types.Uint64], types.Typ[types.Uint64])
				if !ok {
					t.Fatalf("uint64 %v %d not lowered", op, c)
				}
				want := x / c
				if op == token.REM {
					want = x % c
				}
				if got := eval(t, e, int64(x)); got != int64(want) {
					t.Errorf("%d %v %d = %d in the model (%s), Go says %d", x, op, c, got, model.FormatExpr(e, nil, nil), want)
				}
				if c&(c-1) != 0 { // powers of two are shifts and wraps
					checkNoOverflow(t, e, int64(x))
				}
			}
		}
	}
}

// checkNoOverflow fails if evaluating e with register 0 = x computes a
// value outside the int64 range in mathematical integers.
func checkNoOverflow(t *testing.T, e model.Expr, x int64) {
	t.Helper()
	var walk func(e model.Expr) *big.Int
	walk = func(e model.Expr) *big.Int {
		switch e := e.(type) {
		case model.Const:
			return big.NewInt(e.Value)
		case model.RegRef:
			return big.NewInt(x)
		case model.Binary:
			a, b := walk(e.X), walk(e.Y)
			v := new(big.Int)
			switch e.Op {
			case model.OpAdd:
				v.Add(a, b)
			case model.OpSub:
				v.Sub(a, b)
			case model.OpMul:
				v.Mul(a, b)
			case model.OpDiv:
				v.Quo(a, b)
			case model.OpMod:
				v.Rem(a, b)
			case model.OpLt:
				if a.Cmp(b) < 0 {
					v.SetInt64(1)
				}
			default:
				t.Fatalf("unexpected operator %v in %s", e.Op, model.FormatExpr(e, nil, nil))
			}
			if !v.IsInt64() {
				t.Errorf("%s = %v with x = %d: outside int64", model.FormatExpr(e, nil, nil), v, x)
			}
			return v
		}
		t.Fatalf("unexpected expression %T", e)
		return nil
	}
	walk(e)
}
