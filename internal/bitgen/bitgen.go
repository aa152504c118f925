// Package bitgen generates small programs that compute with the bitwise
// operators and shifts of package model, for the differential tests of the
// engines against the explicit engine.
package bitgen

import (
	"fmt"
	"math/rand/v2"

	"github.com/fencecheck/fencecheck/model"
)

// Program generates a loop-free program of two processes over shared x,
// y in [0:7] and a register $r in [-8:7] per process that computes with the
// bitwise operators and shifts: wrapped results written and assigned,
// guards testing bits, locked fetch-and-or/and/xor, shifts by constant
// counts (negative ones fault; 64 and more shift every bit out). With
// runtime set, operators also combine two run-time values and shift by
// run-time counts. exact is false when the program shifts by a negative
// constant count or (runtime) by a run-time count, or combines two
// run-time values: the constructs the engine does not encode.
func Program(rng *rand.Rand, runtime bool) (p *model.Program, exact bool) {
	exact = true
	p = &model.Program{Name: "bitops", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 7)}, {Name: "y", Dom: model.Range(0, 7)}}}
	bitOps := []model.BinOp{model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot}
	shifts := []model.BinOp{model.OpShl, model.OpShr, model.OpShrU}
	counts := []int64{0, 2, 3, 5, 62, 63, 64, 70}
	operand := func() model.Expr {
		if runtime && rng.IntN(3) == 0 {
			exact = false
			return model.Bin(model.OpAdd, model.R(0), model.C(int64(rng.IntN(3))))
		}
		return model.C(int64(rng.IntN(19) - 9))
	}
	bitExpr := func() model.Expr {
		switch rng.IntN(4) {
		case 0:
			return model.Unary{Op: model.OpCompl, X: model.R(0)}
		case 1:
			k := model.Expr(model.C(counts[rng.IntN(len(counts))]))
			if rng.IntN(12) == 0 {
				k, exact = model.C(-1), false
			} else if runtime && rng.IntN(3) == 0 {
				k, exact = model.R(0), false
			}
			return model.Bin(shifts[rng.IntN(len(shifts))], model.R(0), k)
		}
		x, y := model.R(0), operand()
		if rng.IntN(2) == 0 {
			x, y = y, x
		}
		return model.Bin(bitOps[rng.IntN(len(bitOps))], x, y)
	}
	bad := model.BadState{}
	var cond model.Expr
	for i := range 2 {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: model.Range(-8, 7)}}}
		l := q.AddLoc("L0", model.Pos{})
		n := 1 + rng.IntN(4)
		for k := range n {
			x := rng.IntN(2)
			var op model.Op
			switch rng.IntN(8) {
			case 0, 1:
				op = model.WriteOp(x, model.W(bitExpr(), 3, false))
			case 2:
				op = model.ReadOp(x, 0)
			case 3:
				op = model.AssignOp(0, model.W(bitExpr(), 4, true))
			case 4:
				m := int64(1 + rng.IntN(7))
				op = model.GuardOp(model.Bin(model.OpEq, model.Bin(model.OpBitAnd, model.R(0), model.C(m)), model.C(m*int64(rng.IntN(2)))))
			case 5:
				op = model.FenceOp()
			default:
				bop := []model.BinOp{model.OpBitOr, model.OpBitAnd, model.OpXor}[rng.IntN(3)]
				op = model.LockedOp(model.ReadOp(x, 0), model.WriteOp(x, model.Bin(bop, model.V(x), model.C(int64(rng.IntN(8))))))
			}
			nl := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			q.AddTrans(l, op, nl, model.Pos{})
			l = nl
		}
		p.Procs = append(p.Procs, q)
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		eq := model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 0}, model.C(int64(rng.IntN(16)-8)))
		if cond == nil {
			cond = eq
		} else {
			cond = model.Bin(model.OpAnd, cond, eq)
		}
	}
	if rng.IntN(3) > 0 {
		bad.Cond = cond
	}
	p.Bad = []model.BadState{bad}
	return p, exact
}
