package extract

import (
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestBitAbs checks that bitAbs bounds every value of the bitwise operators
// and shifts on random small intervals that model.Eval computes.
func TestBitAbs(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	ops := []model.BinOp{model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot, model.OpShl, model.OpShr, model.OpShrU}
	for range 3000 {
		op := ops[rng.IntN(len(ops))]
		xl, yl := rng.Int64N(80)-40, rng.Int64N(80)-40
		xh, yh := xl+rng.Int64N(20), yl+rng.Int64N(20)
		a, ok := bitAbs(op, xl, xh, yl, yh)
		if !ok {
			continue
		}
		for x := xl; x <= xh; x++ {
			for y := yl; y <= yh; y++ {
				v, err := model.Eval(model.Bin(op, model.C(x), model.C(y)), &model.Env{})
				if err != nil {
					continue
				}
				if v < a.lo || v > a.hi {
					t.Fatalf("%d %v %d = %d, outside [%d, %d]", x, op, y, v, a.lo, a.hi)
				}
			}
		}
	}
}
