package extract

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// cgoPrefixes are the prefixes of the Go functions that cgo generates for
// the C functions a package calls (C.add becomes _Cfunc_add, and
// _C2func_add when its errno is used).
var cgoPrefixes = []string{"_Cfunc_", "_C2func_", "_Cmacro_"}

// checkCgo reports a call of fn, a function of the package, that calls
// into C through cgo: its body is cgo's generated code, in the build cache,
// around C code without Go source, so the call is refused at its own
// position in the user's file (the start of the call expression c of fr's
// function when it is known, else pos).
func (s *system) checkCgo(fr *frame, c *ssa.CallCommon, fn *ssa.Function, pos token.Pos) {
	for _, p := range cgoPrefixes {
		name, ok := strings.CutPrefix(fn.Name(), p)
		if !ok {
			continue
		}
		for _, b := range fr.fn.Blocks {
			for _, in := range b.Instrs {
				if call, isCall := in.(*ssa.Call); isCall && &call.Call == c {
					if x, known := s.x.debugOf(fr.fn).expr[call]; known {
						pos = x.Pos()
					}
				}
			}
		}
		s.unsupported(pos, "a call of C.%s through cgo (C code has no Go source to model)", name)
	}
}
