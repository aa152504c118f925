package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestMathematicalEval checks that with mathematical integers a sum,
// difference, product, quotient or negation beyond int64 is ErrOverflow,
// where Go's integers wrap, and that everything within int64 is computed
// as before.
func TestMathematicalEval(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	tests := []struct {
		e        Expr
		wrapped  int64
		overflow bool
	}{
		{Bin(OpAdd, C(maxI), C(1)), minI, true},
		{Bin(OpAdd, C(maxI), C(-1)), maxI - 1, false},
		{Bin(OpAdd, C(minI), C(-1)), maxI, true},
		{Bin(OpSub, C(minI), C(1)), maxI, true},
		{Bin(OpSub, C(0), C(minI)), minI, true},
		{Bin(OpSub, C(-1), C(minI)), maxI, false},
		{Bin(OpMul, C(1<<62), C(2)), minI, true},
		{Bin(OpMul, C(-1<<62), C(2)), minI, false},
		{Bin(OpMul, C(minI), C(-1)), minI, true},
		{Bin(OpMul, C(-1), C(minI)), minI, true},
		{Bin(OpMul, C(0), C(minI)), 0, false},
		{Bin(OpDiv, C(minI), C(-1)), minI, true},
		{Bin(OpMod, C(minI), C(-1)), 0, false},
		{Unary{Op: OpNeg, X: C(minI)}, minI, true},
		{Unary{Op: OpNeg, X: C(maxI)}, -maxI, false},
		{Bin(OpLt, Bin(OpAdd, C(maxI), C(1)), C(0)), 1, true},
	}
	for _, tt := range tests {
		got, err := Eval(tt.e, &Env{})
		if err != nil || got != tt.wrapped {
			t.Errorf("%v with Go's integers = %d, %v; want %d", tt.e, got, err, tt.wrapped)
		}
		got, err = Eval(tt.e, &Env{Ints: Mathematical})
		switch {
		case tt.overflow && !errors.Is(err, ErrOverflow):
			t.Errorf("%v with mathematical integers = %d, %v; want ErrOverflow", tt.e, got, err)
		case !tt.overflow && (err != nil || got != tt.wrapped):
			t.Errorf("%v with mathematical integers = %d, %v; want %d", tt.e, got, err, tt.wrapped)
		}
	}
}

// TestMathematicalStep checks that a step whose value the model cannot
// represent is not taken with mathematical integers (no fault, no
// successor: Replay names it), and wraps with Go's.
func TestMathematicalStep(t *testing.T) {
	p := &Program{Name: "inc", Vars: []Var{{Name: "x", Dom: Unbounded, Init: Init{Value: math.MaxInt64}}}}
	q := &Process{Name: "P", Regs: []Reg{{Name: "r", Dom: Unbounded}}}
	q.AddLoc("L0", Pos{})
	q.AddLoc("L1", Pos{})
	q.AddLoc("L2", Pos{})
	q.AddTrans(0, Op{Kind: Read, Var: 0, Reg: 0}, 1, Pos{})
	q.AddTrans(1, Op{Kind: Write, Var: 0, Expr: Bin(OpAdd, R(0), C(1))}, 2, Pos{})
	p.Procs = []*Process{q}
	p.Bad = []BadState{{Name: "done", Locs: []ProcLoc{{Proc: 0, Loc: 2}}}}
	tr := &Trace{Model: SC, InitMem: []int64{math.MaxInt64}, InitRegs: [][]int64{{0}},
		Steps: []Step{{Proc: 0, Trans: 0, Var: 0, Val: math.MaxInt64}, {Proc: 0, Trans: 1, Var: 0, Val: math.MinInt64}}}
	if _, err := p.Replay(tr); err != nil {
		t.Fatalf("with Go's integers: %v", err)
	}
	p.Ints = Mathematical
	if _, err := p.Replay(tr); err == nil || !strings.Contains(err.Error(), ErrOverflow.Error()) {
		t.Fatalf("with mathematical integers the wrapping write replays (err %v)", err)
	}
	if c := p.Clone(); c.Ints != Mathematical {
		t.Errorf("Clone drops the integers: %v", c.Ints)
	}
}
