package model_test

import (
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestNegatedMirrored checks, on every pair of small values, that a
// comparison's negation holds exactly where it fails and its mirror holds
// of the swapped operands.
func TestNegatedMirrored(t *testing.T) {
	ops := []model.BinOp{model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe}
	eval := func(op model.BinOp, x, y int64) int64 {
		v, err := model.Eval(model.Bin(op, model.C(x), model.C(y)), &model.Env{})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, op := range ops {
		for x := int64(-2); x <= 2; x++ {
			for y := int64(-2); y <= 2; y++ {
				if eval(op, x, y)+eval(op.Negated(), x, y) != 1 {
					t.Errorf("%v and %v on %d, %d", op, op.Negated(), x, y)
				}
				if eval(op, x, y) != eval(op.Mirrored(), y, x) {
					t.Errorf("%v on %d, %d and %v on %d, %d", op, x, y, op.Mirrored(), y, x)
				}
			}
		}
	}
	if model.OpAdd.Negated() != model.OpAdd || model.OpAdd.Mirrored() != model.OpAdd {
		t.Errorf("an operator that is no comparison changed")
	}
}
