package extract

import (
	"go/constant"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// Functions written in assembly that have a Go twin. A function without a
// Go body cannot be followed, and a call of one stays unsupported with the
// reason. The standard library writes some functions both ways: package
// math declares, on the architectures that have it,
//
//	const haveArchCeil = true
//	func archCeil(x float64) float64 // in floor_amd64.s
//
// and the exported function dispatches on the constant:
//
//	func Ceil(x float64) float64 {
//		if haveArchCeil {
//			return archCeil(x)
//		}
//		return ceil(x)
//	}
//
// where ceil is Go. Both compute the function Go's specification and the
// package's documentation define (IEEE 754 arithmetic is exact, rounding
// included), so the model runs the Go twin. The rule is narrow, and every
// part of it is checked: the function has no Go body, is in a package of
// the standard library read from source, is named archX, the package
// declares a boolean constant haveArchX, and a function x (X with its
// first letter in lower case) with a Go body and an identical signature.
// Any other function without a body stays unsupported.

// archTwin returns the Go twin of fn, a function written in assembly, or
// nil when fn has a body or no twin by the rule above.
func (x *extractor) archTwin(fn *ssa.Function) *ssa.Function {
	if fn == nil || len(fn.Blocks) > 0 || fn.Pkg == nil || !x.srcPkgs[fn.Pkg] || fn.Signature.Recv() != nil {
		return nil
	}
	pkg := fn.Pkg.Pkg
	if !stdFromSource[pkg.Path()] {
		return nil
	}
	name, ok := strings.CutPrefix(fn.Name(), "arch")
	if !ok || name == "" {
		return nil
	}
	r, size := utf8.DecodeRuneInString(name)
	if !unicode.IsUpper(r) {
		return nil
	}
	have, ok := pkg.Scope().Lookup("haveArch" + name).(*types.Const)
	if !ok || have.Val().Kind() != constant.Bool {
		return nil
	}
	twin := fn.Pkg.Func(string(unicode.ToLower(r)) + name[size:])
	if twin == nil || len(twin.Blocks) == 0 || !types.Identical(twin.Signature, fn.Signature) {
		return nil
	}
	return twin
}
