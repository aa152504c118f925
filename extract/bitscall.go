package extract

import (
	"go/types"
	"math/bits"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Package math/bits is computed, not inlined (the standard library is not
// read from source). On constant operands every function of one operand
// and the rotations are folded by Go's own math/bits: the sizing helpers of
// lock-free queues (1 << bits.Len64(n-1), the next power of two) get the
// value Go gives them. On operands known only at run time, Len,
// LeadingZeros, TrailingZeros and OnesCount are sums of comparisons, exact
// on every value of the operand's width:
//
//	Len_w(x)           = Σ_{k<w} (x >>> k != 0)
//	LeadingZeros_w(x)  = w - Len_w(x)
//	TrailingZeros_w(x) = Σ_{1≤k≤w} (x & (2^k - 1) == 0)
//	OnesCount_w(x)     = Σ_{k<w} ((x >>> k) & 1)
//
// (a uint64 is held as its int64 bit pattern and >>> is the logical shift).
// The other functions of math/bits, on run-time operands, stay results
// fencecheck does not compute.

// bitsWidth is the width of the operand of a math/bits function from its
// name's suffix ("Len64": 64, "Len": 64, as uint is on amd64); ok is false
// for a name without one of the families above.
func bitsWidth(name, family string) (int, bool) {
	rest, ok := strings.CutPrefix(name, family)
	if !ok {
		return 0, false
	}
	switch rest {
	case "", "64":
		return 64, true
	case "8":
		return 8, true
	case "16":
		return 16, true
	case "32":
		return 32, true
	}
	return 0, false
}

// foldBits computes a function of math/bits on constant operands, as Go
// does; ok is false for a function it does not know.
func foldBits(name string, args []int64) (int64, bool) {
	if len(args) == 2 && strings.HasPrefix(name, "RotateLeft") {
		w, ok := bitsWidth(name, "RotateLeft")
		if !ok {
			return 0, false
		}
		x, k := uint64(args[0]), int(args[1])
		switch w {
		case 8:
			return int64(bits.RotateLeft8(uint8(x), k)), true
		case 16:
			return int64(bits.RotateLeft16(uint16(x), k)), true
		case 32:
			return int64(bits.RotateLeft32(uint32(x), k)), true
		}
		return int64(bits.RotateLeft64(x, k)), true
	}
	if len(args) != 1 {
		return 0, false
	}
	x := uint64(args[0])
	for _, f := range []struct {
		family string
		fns    [4]func(uint64) int64 // widths 8, 16, 32, 64
	}{
		{"Len", [4]func(uint64) int64{
			func(x uint64) int64 { return int64(bits.Len8(uint8(x))) },
			func(x uint64) int64 { return int64(bits.Len16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.Len32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.Len64(x)) }}},
		{"LeadingZeros", [4]func(uint64) int64{
			func(x uint64) int64 { return int64(bits.LeadingZeros8(uint8(x))) },
			func(x uint64) int64 { return int64(bits.LeadingZeros16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.LeadingZeros32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.LeadingZeros64(x)) }}},
		{"TrailingZeros", [4]func(uint64) int64{
			func(x uint64) int64 { return int64(bits.TrailingZeros8(uint8(x))) },
			func(x uint64) int64 { return int64(bits.TrailingZeros16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.TrailingZeros32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.TrailingZeros64(x)) }}},
		{"OnesCount", [4]func(uint64) int64{
			func(x uint64) int64 { return int64(bits.OnesCount8(uint8(x))) },
			func(x uint64) int64 { return int64(bits.OnesCount16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.OnesCount32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.OnesCount64(x)) }}},
		{"Reverse", [4]func(uint64) int64{
			func(x uint64) int64 { return int64(bits.Reverse8(uint8(x))) },
			func(x uint64) int64 { return int64(bits.Reverse16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.Reverse32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.Reverse64(x)) }}},
		{"ReverseBytes", [4]func(uint64) int64{
			nil,
			func(x uint64) int64 { return int64(bits.ReverseBytes16(uint16(x))) },
			func(x uint64) int64 { return int64(bits.ReverseBytes32(uint32(x))) },
			func(x uint64) int64 { return int64(bits.ReverseBytes64(x)) }}},
	} {
		w, ok := bitsWidth(name, f.family)
		if !ok {
			continue
		}
		fn := f.fns[map[int]int{8: 0, 16: 1, 32: 2, 64: 3}[w]]
		if fn == nil {
			return 0, false
		}
		return fn(x), true
	}
	return 0, false
}

// bitsExpr is the exact expression of Len, LeadingZeros, TrailingZeros or
// OnesCount of width w on x; ok is false for the other functions.
func bitsExpr(name string, x model.Expr) (model.Expr, bool) {
	sum := func(w int, term func(k int) model.Expr) model.Expr {
		e := term(0)
		for k := 1; k < w; k++ {
			e = model.Bin(model.OpAdd, e, term(k))
		}
		return e
	}
	bitLen := func(w int) model.Expr {
		return sum(w, func(k int) model.Expr {
			return model.Bin(model.OpNe, model.Bin(model.OpShrU, x, model.C(int64(k))), model.C(0))
		})
	}
	if w, ok := bitsWidth(name, "Len"); ok {
		return bitLen(w), true
	}
	if w, ok := bitsWidth(name, "LeadingZeros"); ok {
		return model.Bin(model.OpSub, model.C(int64(w)), bitLen(w)), true
	}
	if w, ok := bitsWidth(name, "TrailingZeros"); ok {
		return sum(w, func(k int) model.Expr {
			mask := int64(-1) // k+1 == 64: every bit
			if k+1 < 64 {
				mask = int64(1)<<(k+1) - 1
			}
			return model.Bin(model.OpEq, model.Bin(model.OpBitAnd, x, model.C(mask)), model.C(0))
		}), true
	}
	if w, ok := bitsWidth(name, "OnesCount"); ok {
		return sum(w, func(k int) model.Expr {
			return model.Bin(model.OpBitAnd, model.Bin(model.OpShrU, x, model.C(int64(k))), model.C(1))
		}), true
	}
	return nil, false
}

// bitsCall computes a call of a function of package math/bits: folded on
// constants, an expression for the counting functions on other operands.
// ok is false for the other calls, whose results stay values fencecheck
// does not compute.
func (s *system) bitsCall(fn *ssa.Function, args []value) (value, bool) {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "math/bits" || fn.Signature.Recv() != nil {
		return value{}, false
	}
	consts := make([]int64, len(args))
	allConst := true
	for i, a := range args {
		c, ok := a.constant()
		consts[i], allConst = c, allConst && ok
	}
	if allConst {
		if v, ok := foldBits(fn.Name(), consts); ok {
			return constVal(v), true
		}
		return value{}, false
	}
	if len(args) != 1 || args[0].kind != vInt {
		return value{}, false
	}
	e, ok := bitsExpr(fn.Name(), args[0].e)
	if !ok {
		return value{}, false
	}
	return intVal(e), true
}
