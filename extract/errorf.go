package extract

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// plainArgs reports whether formatting the arguments args of fmt.Errorf
// cannot touch the system's memory: each is a boolean, a number or a
// string, or (where readOnly, when not nil, says so) a value only readable
// (readOnlyArg: an error errors.New or fmt.Errorf made, a result of a call
// the model does not run). The message is a string the model does not
// compute.
func plainArgs(args ssa.Value, readOnly func(ssa.Value) bool) bool {
	vals, ok := appendArgs(args)
	if !ok {
		return false
	}
	for _, v := range vals {
		if readOnly != nil && argProblemAt(v, readOnly) == "" {
			continue
		}
		if mi, isIface := v.(*ssa.MakeInterface); isIface {
			v = mi.X
		}
		b, isBasic := v.Type().Underlying().(*types.Basic)
		if !isBasic || b.Kind() == types.UnsafePointer {
			return false
		}
	}
	return true
}

// isNilConst reports whether v is the constant nil (the variadic slice of
// a call without variadic arguments).
func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value == nil
}
