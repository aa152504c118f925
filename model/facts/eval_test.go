package facts

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestEvalBitops checks that eval over-approximates the bitwise operators
// and shifts: on random small domains of two registers, every value
// model.Eval computes lies in the interval, and a fault (a negative shift
// count) is flagged.
func TestEvalBitops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	ops := []model.BinOp{model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot, model.OpShl, model.OpShr, model.OpShrU}
	for range 2000 {
		var doms [2]model.Domain
		for i := range doms {
			lo := rng.Int64N(40) - 20
			doms[i] = model.Range(lo, lo+rng.Int64N(12))
		}
		var e model.Expr
		if rng.IntN(8) == 0 {
			e = model.Unary{Op: model.OpCompl, X: model.R(0)}
		} else {
			e = model.Bin(ops[rng.IntN(len(ops))], model.R(0), model.R(1))
		}
		iv, fault := eval(e, func(r int) model.Domain { return doms[r] }, nil)
		for x := doms[0].Lo; x <= doms[0].Hi; x++ {
			for y := doms[1].Lo; y <= doms[1].Hi; y++ {
				v, err := model.Eval(e, &model.Env{Regs: []int64{x, y}})
				if err != nil {
					if !fault {
						t.Fatalf("%s on x=%d y=%d faults (%v), eval says it cannot", model.FormatExpr(e, nil, nil), x, y, err)
					}
					continue
				}
				if !iv.top && (big.NewInt(v).Cmp(iv.lo) < 0 || big.NewInt(v).Cmp(iv.hi) > 0) {
					t.Fatalf("%s on x=%d y=%d is %d, outside [%v, %v]", model.FormatExpr(e, nil, nil), x, y, v, iv.lo, iv.hi)
				}
			}
		}
	}
}
