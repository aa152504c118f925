package model

import (
	"fmt"
	"math"
)

// Float is an operation of Go's floating-point arithmetic on values that the
// model holds as their IEEE 754 bit patterns: a float64 as the int64 with its
// 64 bits (math.Float64bits read as int64), a float32 as the uint32 of its
// 32 bits (math.Float32bits, 0 ≤ v < 2^32). So math.Float64bits and
// Float64frombits (and the 32-bit pair) need no operation: they copy bits.
//
// Bits (32 or 64) is the width of the float operands, and of the result of
// the arithmetic ([FAdd] … [FNeg]) and of [FFromInt], [FFromUint] and
// [FFromFloat], whose operand is an integer or a float of the other width.
// The comparisons give 0 or 1. Y is nil for the unary operations.
//
// The values are those gc computes on amd64, which [EvalFloat] follows
// bit for bit: IEEE 754 round to nearest even in each operation (gc fuses
// no multiply-add there), signed zeros, a NaN operand returned quietened
// (the first one when both are NaNs), the default NaN of x86
// (0xFFF8000000000000, 0xFFC00000) for an invalid operation, negation as a
// flip of the sign bit, and for the conversions to integers that Go leaves
// to the implementation (NaN, infinities and values out of range) the
// results of CVTTSD2SQ and CVTTSD2SL and of gc's sequence for uint64.
type Float struct {
	Op   FloatOp
	Bits uint8
	X, Y Expr
}

func (Float) expr() {}

// FloatOp is the operation of a [Float].
type FloatOp uint8

// The floating-point operations.
const (
	FAdd       FloatOp = iota // x + y
	FSub                      // x - y
	FMul                      // x * y
	FDiv                      // x / y
	FNeg                      // -x
	FEq                       // x == y (false for a NaN; -0 == +0)
	FNe                       // x != y
	FLt                       // x < y
	FLe                       // x <= y
	FGt                       // x > y
	FGe                       // x >= y
	FFromInt                  // float(x) of a signed integer x
	FFromUint                 // float(x) of a uint64 bit pattern x
	FFromFloat                // float(x) of a float x of the other width
	FToInt64                  // int64(x), MinInt64 when out of range or NaN
	FToInt32                  // int32(x), MinInt32 when out of range or NaN
	FToUint64                 // uint64(x) as gc computes it on amd64
	numFloatOps
)

// floatOpNames are the names of the operations in the native model format,
// each followed by the width: fadd64(x, y), itof32(x), f64toi64(x) is
// written "f64toi64" with the width inside.
var floatOpNames = [numFloatOps]string{"fadd%d", "fsub%d", "fmul%d", "fdiv%d", "fneg%d",
	"feq%d", "fne%d", "flt%d", "fle%d", "fgt%d", "fge%d",
	"itof%d", "utof%d", "ftof%d", "f%dtoi64", "f%dtoi32", "f%dtou64"}

// Name returns the name of op at width bits in the native model format.
func (op FloatOp) Name(bits uint8) string {
	if op >= numFloatOps {
		return fmt.Sprintf("FloatOp(%d)", op)
	}
	return fmt.Sprintf(floatOpNames[op], bits)
}

// ParseFloatOp returns the operation and width named by name (fadd64,
// f32toi64), as [FloatOp.Name] writes them.
func ParseFloatOp(name string) (FloatOp, uint8, bool) {
	for op := FloatOp(0); op < numFloatOps; op++ {
		for _, bits := range []uint8{32, 64} {
			if op.Name(bits) == name {
				return op, bits, true
			}
		}
	}
	return 0, 0, false
}

// Unary reports whether op takes one operand.
func (op FloatOp) Unary() bool { return op == FNeg || op >= FFromInt }

// Compare reports whether op is a comparison (its value is 0 or 1).
func (op FloatOp) Compare() bool { return op >= FEq && op <= FGe }

// FloatBits returns the bit pattern of f as the model holds a float of width
// bits (32 or 64).
func FloatBits(f float64, bits uint8) int64 {
	if bits == 32 {
		return int64(math.Float32bits(float32(f)))
	}
	return int64(math.Float64bits(f))
}

// FloatValue returns the float whose bit pattern the model holds in v, at
// width bits, as a float64 (a float32 widens exactly; a NaN stays a NaN).
func FloatValue(v int64, bits uint8) float64 {
	if bits == 32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(uint64(v))
}

// isNaNBits reports whether v is the bit pattern of a NaN of width bits.
func isNaNBits(v int64, bits uint8) bool {
	if bits == 32 {
		u := uint32(v)
		return u&0x7f800000 == 0x7f800000 && u&0x007fffff != 0
	}
	u := uint64(v)
	return u&0x7ff0000000000000 == 0x7ff0000000000000 && u&0x000fffffffffffff != 0
}

// quiet returns the NaN v with its quiet bit set.
func quiet(v int64, bits uint8) int64 {
	if bits == 32 {
		return int64(uint32(v) | 1<<22)
	}
	return v | 1<<51
}

// The default NaNs of x86, produced by an invalid operation (0/0, ∞-∞).
const (
	defaultNaN64 = -0x8000000000000     // 0xFFF8000000000000 as int64
	defaultNaN32 = 0xffc00000           // as the model holds a float32
	signBit64    = math.MinInt64        // the sign of a float64
	signBit32    = 1 << 31              // the sign of a float32
	twoTo63      = 9223372036854775808. // 2^63
	twoTo31      = 2147483648.          // 2^31
)

// EvalFloat applies op at width bits to the bit patterns x and y (y is
// ignored by the unary operations), as gc's code computes it on amd64.
func EvalFloat(op FloatOp, bits uint8, x, y int64) (int64, error) {
	if bits != 32 && bits != 64 {
		return 0, fmt.Errorf("float operation %s of width %d", op.Name(bits), bits)
	}
	switch op {
	case FAdd, FSub, FMul, FDiv:
		return arith(op, bits, x, y), nil
	case FNeg:
		if bits == 32 {
			return int64(uint32(x) ^ signBit32), nil
		}
		return x ^ signBit64, nil
	case FEq, FNe, FLt, FLe, FGt, FGe:
		a, b := FloatValue(x, bits), FloatValue(y, bits)
		var r bool
		switch op {
		case FEq:
			r = a == b
		case FNe:
			r = a != b
		case FLt:
			r = a < b
		case FLe:
			r = a <= b
		case FGt:
			r = a > b
		default:
			r = a >= b
		}
		return b2i(r), nil
	case FFromInt:
		if bits == 32 {
			return int64(math.Float32bits(float32(x))), nil
		}
		return int64(math.Float64bits(float64(x))), nil
	case FFromUint:
		if bits == 32 {
			return int64(math.Float32bits(float32(uint64(x)))), nil
		}
		return int64(math.Float64bits(float64(uint64(x)))), nil
	case FFromFloat:
		return fromFloat(bits, x), nil
	case FToInt64:
		return toInt64(FloatValue(x, bits)), nil
	case FToInt32:
		f := FloatValue(x, bits)
		if f != f || f >= twoTo31 || f <= -twoTo31-1 {
			return math.MinInt32, nil
		}
		return int64(int32(f)), nil
	case FToUint64:
		// gc: x < 2^63 ? int64(x) : int64(x - 2^63) | MinInt64, each
		// int64 conversion a CVTTSD2SQ.
		f := FloatValue(x, bits)
		if f < twoTo63 {
			return toInt64(f), nil
		}
		return toInt64(f-twoTo63) | math.MinInt64, nil
	}
	return 0, fmt.Errorf("unknown float operation %v", op)
}

// toInt64 is CVTTSD2SQ: f truncated, MinInt64 for NaN and out of range.
func toInt64(f float64) int64 {
	if f != f || f >= twoTo63 || f < -twoTo63 {
		return math.MinInt64
	}
	return int64(f)
}

// arith computes x op y for op one of FAdd … FDiv.
func arith(op FloatOp, bits uint8, x, y int64) int64 {
	switch {
	case isNaNBits(x, bits):
		return quiet(x, bits)
	case isNaNBits(y, bits):
		return quiet(y, bits)
	}
	if bits == 32 {
		r := arithIn(op, math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y)))
		if r != r {
			return defaultNaN32
		}
		return int64(math.Float32bits(r))
	}
	r := arithIn(op, math.Float64frombits(uint64(x)), math.Float64frombits(uint64(y)))
	if r != r {
		return defaultNaN64
	}
	return int64(math.Float64bits(r))
}

// arithIn computes a op b in the width of F, rounded as Go rounds it.
func arithIn[F float32 | float64](op FloatOp, a, b F) F {
	switch op {
	case FAdd:
		return a + b
	case FSub:
		return a - b
	case FMul:
		return a * b
	}
	return a / b
}

// fromFloat converts x, a float of the width other than bits, to width
// bits: exactly to float64, rounded to nearest even to float32, a NaN
// quietened with its payload's high bits kept (CVTSS2SD, CVTSD2SS).
func fromFloat(bits uint8, x int64) int64 {
	if bits == 64 {
		if isNaNBits(x, 32) {
			u := uint64(uint32(x))
			return int64(u>>31<<63 | 0x7ff<<52 | (u&0x7fffff)<<29 | 1<<51)
		}
		return int64(math.Float64bits(float64(math.Float32frombits(uint32(x)))))
	}
	if isNaNBits(x, 64) {
		u := uint64(x)
		return int64(uint32(u>>63<<31 | 0xff<<23 | (u&0xfffffffffffff)>>29 | 1<<22))
	}
	return int64(math.Float32bits(float32(math.Float64frombits(uint64(x)))))
}

// F returns the float operation op of width bits on x (and y for a binary one).
func F(op FloatOp, bits uint8, x, y Expr) Expr {
	if op.Unary() {
		y = nil
	}
	return Float{Op: op, Bits: bits, X: x, Y: y}
}

// HasFloat reports whether e contains a [Float].
func HasFloat(e Expr) bool {
	found := false
	WalkExpr(e, func(e Expr) {
		if _, ok := e.(Float); ok {
			found = true
		}
	})
	return found
}

// FloatAt returns the Go position of the first transition of p whose
// operation computes with floats, and whether there is one (a bad-state
// condition with one has the zero position). An engine that does not
// encode floating-point arithmetic names it in its answer.
func (p *Program) FloatAt() (Pos, bool) {
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			if opHasFloat(t.Op) {
				return t.Pos, true
			}
		}
	}
	for _, b := range p.Bad {
		if HasFloat(b.Cond) {
			return Pos{}, true
		}
	}
	return Pos{}, false
}

func opHasFloat(o Op) bool {
	if HasFloat(o.Expr) {
		return true
	}
	for _, b := range o.Body {
		if opHasFloat(b) {
			return true
		}
	}
	return false
}
