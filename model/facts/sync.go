package facts

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Acquires returns the variables whose last release op synchronises after
// (it acquires them): the variable of an atomic load, and those a locked
// operation observes.
func Acquires(op model.Op) []int {
	switch op.Kind {
	case model.Read:
		if op.Atomic {
			return []int{op.Var}
		}
	case model.Locked:
		return observes(op)
	}
	return nil
}

// Releases returns the variables op releases: those a locked operation
// writes. A plain store releases nothing.
func Releases(op model.Op) []int {
	var xs []int
	if op.Kind == model.Locked {
		for _, b := range op.Body {
			if b.Kind == model.Write && !slices.Contains(xs, b.Var) {
				xs = append(xs, b.Var)
			}
		}
	}
	return xs
}

// observes returns the variables whose value a locked operation observes
// (it reads them into a register, compares them or computes with them): the
// ones it synchronises after.
func observes(op model.Op) []int {
	var xs []int
	add := func(x int) {
		if !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
	}
	for _, b := range op.Body {
		if b.NoSync {
			continue
		}
		if b.Kind == model.Read && (b.Reg >= 0 || b.Expr != nil) {
			add(b.Var)
		}
		model.WalkExpr(b.Expr, func(e model.Expr) {
			if v, ok := e.(model.VarRef); ok {
				add(v.Var)
			}
		})
	}
	return xs
}
