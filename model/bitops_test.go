package model_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestBitops checks the bitwise operators, the shifts and the division of
// model.Eval against Go's semantics on int64 (uint64 bit patterns for >>>).
func TestBitops(t *testing.T) {
	const minI = math.MinInt64
	tests := []struct {
		name string
		e    model.Expr
		want int64
		err  error
	}{
		{"and", model.Bin(model.OpBitAnd, model.C(12), model.C(10)), 8, nil},
		{"and negative", model.Bin(model.OpBitAnd, model.C(-3), model.C(7)), 5, nil},
		{"or", model.Bin(model.OpBitOr, model.C(12), model.C(3)), 15, nil},
		{"xor", model.Bin(model.OpXor, model.C(-1), model.C(5)), -6, nil},
		{"and not", model.Bin(model.OpAndNot, model.C(15), model.C(6)), 9, nil},
		{"and not negative", model.Bin(model.OpAndNot, model.C(-1), model.C(minI)), math.MaxInt64, nil},
		{"complement", model.Unary{Op: model.OpCompl, X: model.C(5)}, -6, nil},
		{"shl", model.Bin(model.OpShl, model.C(3), model.C(4)), 48, nil},
		{"shl into the sign", model.Bin(model.OpShl, model.C(1), model.C(63)), minI, nil},
		{"shl by 64", model.Bin(model.OpShl, model.C(1), model.C(64)), 0, nil},
		{"shl by a huge count", model.Bin(model.OpShl, model.C(-1), model.C(math.MaxInt64)), 0, nil},
		{"shl negative count", model.Bin(model.OpShl, model.C(1), model.C(-1)), 0, model.ErrNegShift},
		{"shr", model.Bin(model.OpShr, model.C(-7), model.C(1)), -4, nil},
		{"shr by 64 of a negative", model.Bin(model.OpShr, model.C(-7), model.C(64)), -1, nil},
		{"shr by 100 of a positive", model.Bin(model.OpShr, model.C(7), model.C(100)), 0, nil},
		{"shr negative count", model.Bin(model.OpShr, model.C(7), model.C(minI)), 0, model.ErrNegShift},
		{"shru", model.Bin(model.OpShrU, model.C(-1), model.C(60)), 15, nil},
		{"shru by 64", model.Bin(model.OpShrU, model.C(-1), model.C(64)), 0, nil},
		{"shru negative count", model.Bin(model.OpShrU, model.C(-1), model.C(-64)), 0, model.ErrNegShift},
		{"div truncates", model.Bin(model.OpDiv, model.C(-7), model.C(2)), -3, nil},
		{"mod has the dividend's sign", model.Bin(model.OpMod, model.C(-7), model.C(3)), -1, nil},
		{"mod by a negative", model.Bin(model.OpMod, model.C(7), model.C(-3)), 1, nil},
		{"MinInt64 / -1 wraps", model.Bin(model.OpDiv, model.C(minI), model.C(-1)), minI, nil},
		{"MinInt64 % -1", model.Bin(model.OpMod, model.C(minI), model.C(-1)), 0, nil},
		{"div by zero", model.Bin(model.OpDiv, model.C(1), model.C(0)), 0, model.ErrDivZero},
		{"precedence of | below &", model.Bin(model.OpBitOr, model.C(1), model.Bin(model.OpBitAnd, model.C(6), model.C(3))), 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := model.Eval(tt.e, &model.Env{})
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Eval(%v) = %d, %v; want error %v", model.FormatExpr(tt.e, nil, nil), got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Eval(%v) = %d, %v; want %d", model.FormatExpr(tt.e, nil, nil), got, err, tt.want)
			}
		})
	}
}

// TestBitopsValidate checks that validation accepts the new operators in
// their places and rejects them elsewhere.
func TestBitopsValidate(t *testing.T) {
	for _, op := range []model.BinOp{model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot, model.OpShl, model.OpShr, model.OpShrU} {
		if !op.IsBinary() || op.IsUnary() {
			t.Errorf("%v: IsBinary %v, IsUnary %v", op, op.IsBinary(), op.IsUnary())
		}
	}
	if !model.OpCompl.IsUnary() || model.OpCompl.IsBinary() {
		t.Errorf("^: not only unary")
	}
}

// TestBitopsFormat checks that printing keeps Go's precedence.
func TestBitopsFormat(t *testing.T) {
	x, y, z := model.C(1), model.C(2), model.C(3)
	tests := []struct {
		e    model.Expr
		want string
	}{
		{model.Bin(model.OpBitOr, x, model.Bin(model.OpBitAnd, y, z)), "1 | 2 & 3"},
		{model.Bin(model.OpBitAnd, model.Bin(model.OpBitOr, x, y), z), "(1 | 2) & 3"},
		{model.Bin(model.OpAdd, model.Bin(model.OpShl, x, y), z), "1 << 2 + 3"},
		{model.Bin(model.OpShr, x, model.Bin(model.OpAdd, y, z)), "1 >> (2 + 3)"},
		{model.Bin(model.OpEq, model.Bin(model.OpBitAnd, x, y), z), "1 & 2 == 3"},
		{model.Unary{Op: model.OpCompl, X: model.Bin(model.OpXor, x, y)}, "^(1 ^ 2)"},
		{model.Bin(model.OpShrU, x, y), "1 >>> 2"},
	}
	for _, tt := range tests {
		if got := model.FormatExpr(tt.e, nil, nil); got != tt.want {
			t.Errorf("FormatExpr = %q, want %q", got, tt.want)
		}
	}
}
