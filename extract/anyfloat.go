package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"strconv"

	"github.com/fencecheck/fencecheck/model"
)

// Interface values holding floats.
//
// A float64 or float32 payload is boxed as an integer is (ifacecells.go,
// anyint.go): a box per bit pattern, a constant's or each value a run-time
// payload takes. Go compares such interface values by float equality, not
// by bits: one holding NaN is unequal to every value, itself included, and
// one holding -0 equals one holding +0 of the same type. Boxes are equal
// exactly when their bits are, so a comparison of heap ids that may name
// float boxes is corrected (floatIDEq): a NaN box equals nothing, and the
// two zero boxes of one type are equal. An assertion gives the bits back,
// the sign of a zero included. An atomic.Value's compare-and-swap and a
// map key that may hold a float are refused: they compare by heap id.

// isScalarPayload reports whether an interface value of dynamic type t
// holds a payload boxed by its value: an integer, a boolean, a string or
// a float.
func isScalarPayload(t types.Type) bool {
	return isIntegral(t) || isString(t) || floatBits(t) != 0
}

// floatText spells the float of bit pattern v of a w-bit type as Go
// prints it.
func floatText(v int64, w uint8) string {
	if w == 32 {
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(v))), 'g', -1, 32)
	}
	return strconv.FormatFloat(math.Float64frombits(uint64(v)), 'g', -1, 64)
}

// isNaNBits reports whether v is the bit pattern of a NaN of a w-bit float.
func isNaNBits(v int64, w uint8) bool {
	if w == 32 {
		return math.IsNaN(float64(math.Float32frombits(uint32(v))))
	}
	return math.IsNaN(math.Float64frombits(uint64(v)))
}

// negZero returns the bit pattern of -0 of a w-bit float.
func negZero(w uint8) int64 {
	if w == 32 {
		return int64(math.Float32bits(float32(math.Copysign(0, -1))))
	}
	return int64(math.Float64bits(math.Copysign(0, -1)))
}

// floatBoxName names the box of a float payload: any(0.5), any(float32(0.5)).
func floatBoxName(t types.Type, ts string, v int64) string {
	w := floatBits(t)
	txt := floatText(v, w)
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.Float64 {
		if _, err := strconv.ParseInt(txt, 10, 64); err == nil {
			txt += ".0" // any(1.0), not any(1), which holds an int
		}
		return fmt.Sprintf("any(%s)", txt)
	}
	return fmt.Sprintf("any(%s(%s))", ts, txt)
}

// floatPayloadEqual compares the payloads a and b of two interface values
// of the float type t as Go's == does.
func (s *system) floatPayloadEqual(t types.Type, a, b value, pos token.Pos) value {
	return foldFloat(model.F(model.FEq, floatBits(t), s.asInt(a, pos), s.asInt(b, pos)))
}

// floatIDEq is x == y for heap ids of interface values, as Go compares
// them when they may hold floats: the boxes of NaNs equal nothing, and the
// boxes of -0 and +0 of one type are equal.
func (s *system) floatIDEq(x, y model.Expr) model.Expr {
	eq := model.Bin(model.OpEq, x, y)
	zeros := map[string][2]int64{} // by type: the ids of +0 and -0
	var order []string
	for i, o := range s.heap.heap {
		w := floatBits(o.typ)
		if !o.box || w == 0 {
			continue
		}
		id := int64(i + 1)
		if isNaNBits(o.boxVal, w) {
			eq = and(eq, model.Bin(model.OpNe, x, model.C(id)))
			continue
		}
		k := types.TypeString(o.typ, nil)
		z, seen := zeros[k]
		if !seen {
			order = append(order, k)
		}
		switch o.boxVal {
		case 0:
			z[0] = id
		case negZero(w):
			z[1] = id
		default:
			continue
		}
		zeros[k] = z
	}
	for _, k := range order {
		z := zeros[k]
		if z[0] == 0 || z[1] == 0 {
			continue
		}
		pz, nz := model.C(z[0]), model.C(z[1])
		cross := or(and(model.Bin(model.OpEq, x, pz), model.Bin(model.OpEq, y, nz)),
			and(model.Bin(model.OpEq, x, nz), model.Bin(model.OpEq, y, pz)))
		eq = or(eq, cross)
	}
	return eq
}

// mayHoldFloat reports whether the interface value v may hold a float.
func mayHoldFloat(v value) bool {
	switch v.kind {
	case vIface:
		return floatBits(v.typ) != 0
	case vRef:
		for _, o := range v.objs {
			if (o.box || o.byValue) && floatBits(o.typ) != 0 {
				return true
			}
		}
	}
	return false
}
