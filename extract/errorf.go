package extract

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// plainErrorf reports whether fmt.Errorf(format, args...) makes an error
// that an errors.New of the extractor's own can stand for: format wraps
// no error (no %w), so errors.Is and == see only the new error's
// identity, and every argument is a boolean, a number or a string, which
// formatting cannot make touch the system's memory. The message is never
// looked at (calling Error on such an error is refused).
func plainErrorf(format string, args ssa.Value) bool {
	if strings.Contains(format, "%w") {
		return false
	}
	vals, ok := appendArgs(args)
	if !ok {
		return false
	}
	for _, v := range vals {
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
