package extract

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// plainErrorf reports whether fmt.Errorf(format, args...) makes an error
// that an errors.New of the extractor's own can stand for: format wraps
// no error (no %w), so errors.Is and == see only the new error's
// identity, and no argument can make formatting touch the system's
// memory: each is a boolean, a number or a string, or (where readOnly,
// when not nil, says so) a value only readable (readOnlyArg: an error
// errors.New made, a result of a call the model does not run). The
// message is a string the model does not compute.
func plainErrorf(format string, args ssa.Value, readOnly func(ssa.Value) bool) bool {
	if strings.Contains(format, "%w") {
		return false
	}
	vals, ok := appendArgs(args)
	if !ok {
		return false
	}
	for _, v := range vals {
		if v == nil {
			continue
		}
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
