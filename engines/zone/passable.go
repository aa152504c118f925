package zone

import (
	"reflect"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// maxTotalValues bounds the valuations of finite registers that total
// enumerates.
const maxTotalValues = 1 << 12

// passable returns, for every process and location, whether the
// abstraction may go past the location without storing a state there:
// every transition from it is local (a nop, an assignment, a guard or,
// under SC, a fence), in every state one of them is enabled (total), no
// bad state names the process there, and none names its registers.
func passable(p *model.Program) [][]bool {
	watched := facts.Watched(p)
	out := make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		out[i] = make([]bool, len(q.Locs))
		for l := range q.Locs {
			out[i][l] = !watched[i][l] && total(q, l)
		}
	}
	return out
}

// total reports whether every transition from l is local and in every
// state some transition from l is enabled: one is not a guard, or two
// guards are each other's negation, or the guards read only registers of
// finite domains and every valuation of those satisfies one of them.
func total(q *model.Process, l int) bool {
	var guards []model.Expr
	always := false
	for _, ti := range q.Out(l) {
		switch op := q.Trans[ti].Op; op.Kind {
		case model.Nop, model.Assign, model.Fence:
			always = true
		case model.Guard:
			guards = append(guards, op.Expr)
		default:
			return false
		}
	}
	switch {
	case always:
		return true
	case len(guards) == 0:
		return false
	case len(guards) == 2 && complementary(guards[0], guards[1]):
		return true
	}
	var regs []int
	for _, g := range guards {
		unknown := false
		model.WalkExpr(g, func(e model.Expr) {
			switch e := e.(type) {
			case model.RegRef:
				if e.Proc >= 0 || e.Reg < 0 || e.Reg >= len(q.Regs) {
					unknown = true
				} else if !containsInt(regs, e.Reg) {
					regs = append(regs, e.Reg)
				}
			case model.VarRef:
				unknown = true
			}
		})
		if unknown {
			return false
		}
	}
	n := int64(1)
	for _, r := range regs {
		d := q.Regs[r].Dom
		if d.Unbounded || d.Size() > maxTotalValues {
			return false
		}
		n *= d.Size()
		if n > maxTotalValues {
			return false
		}
	}
	vals := make([]int64, len(q.Regs))
	env := &model.Env{Regs: vals}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(regs) {
			for _, g := range guards {
				// A guard that cannot be evaluated faults: a successor too.
				if v, err := model.Eval(g, env); err != nil || v != 0 {
					return true
				}
			}
			return false
		}
		d := q.Regs[regs[k]].Dom
		for v := d.Lo; ; v++ {
			vals[regs[k]] = v
			if !rec(k + 1) {
				return false
			}
			if v == d.Hi {
				return true
			}
		}
	}
	return rec(0)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// negated pairs the comparisons with their negations.
var negated = map[model.BinOp]model.BinOp{
	model.OpLt: model.OpGe, model.OpGe: model.OpLt,
	model.OpLe: model.OpGt, model.OpGt: model.OpLe,
	model.OpEq: model.OpNe, model.OpNe: model.OpEq,
}

// swapped gives the comparison with its operands exchanged.
var swapped = map[model.BinOp]model.BinOp{
	model.OpLt: model.OpGt, model.OpGt: model.OpLt,
	model.OpLe: model.OpGe, model.OpGe: model.OpLe,
	model.OpEq: model.OpEq, model.OpNe: model.OpNe,
}

// complementary reports whether b is the negation of a: !a, or the negated
// comparison of the same operands (in either order).
func complementary(a, b model.Expr) bool {
	if u, ok := b.(model.Unary); ok && u.Op == model.OpNot && reflect.DeepEqual(u.X, a) {
		return true
	}
	if u, ok := a.(model.Unary); ok && u.Op == model.OpNot && reflect.DeepEqual(u.X, b) {
		return true
	}
	x, ok1 := a.(model.Binary)
	y, ok2 := b.(model.Binary)
	if !ok1 || !ok2 {
		return false
	}
	neg, ok := negated[x.Op]
	if !ok {
		return false
	}
	if y.Op == neg && reflect.DeepEqual(x.X, y.X) && reflect.DeepEqual(x.Y, y.Y) {
		return true
	}
	return y.Op == swapped[neg] && reflect.DeepEqual(x.X, y.Y) && reflect.DeepEqual(x.Y, y.X)
}
