package extract

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// errors.Join of a slice.
//
// errors.Join(errs...) of a slice the program built (errors gathered by
// workers under a mutex, or each into its own element) joins the errors
// the slice holds when the call runs. The model lowers it from Go source
// of its own: a switch on the slice's length whose case n joins errs[0]
// to errs[n-1], each case a call of errors.Join with n operands that
// joinSpec computes as it does any other. Go's errors.Join reads each
// element twice (it counts the errors that are not nil, then copies
// them); the model reads each once, which differs only where the reads
// race with a write, and that race is reported. A slice longer than
// maxJoinSlice is refused where a run reaches it.

// maxJoinSlice is the longest slice errors.Join(errs...) is modelled on.
const maxJoinSlice = 16

// joinTooLongWhy is the refusal of errors.Join of a longer slice.
var joinTooLongWhy = fmt.Sprintf("errors.Join of a slice of more than %d errors (fencecheck models it on up to %d)", maxJoinSlice, maxJoinSlice)

// joinSliceSource is the Go source of the model of errors.Join(errs...),
// in a package that imports errors.
func joinSliceSource() string {
	var b strings.Builder
	b.WriteString("package errors\n\nimport \"errors\"\n\n")
	b.WriteString("// joinTooLong stands for errors.Join of more elements than the model keeps.\n")
	b.WriteString("func joinTooLong(errs []error) error\n\n")
	b.WriteString("func Join(errs []error) error {\n\tswitch len(errs) {\n\tcase 0:\n\t\treturn nil\n")
	for n := 1; n <= maxJoinSlice; n++ {
		var ops []string
		for i := range n {
			ops = append(ops, fmt.Sprintf("errs[%d]", i))
		}
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn errors.Join(%s)\n", n, strings.Join(ops, ", "))
	}
	b.WriteString("\t}\n\treturn joinTooLong(errs)\n}\n")
	return b.String()
}

// joinSliceShim returns, for fn errors.Join called on args, a slice the
// call does not build from its operands (appendArgs), the function of the
// model's own source that stands for it; nil for any other call.
func (x *extractor) joinSliceShim(fn *ssa.Function, c *ssa.CallCommon) (*ssa.Function, error) {
	if !isErrorsFunc(fn, "errors", "Join") {
		return nil, nil
	}
	if _, ok := appendArgs(c.Args[0]); ok {
		return nil, nil
	}
	if x.joinSlice != nil {
		return x.joinSlice, nil
	}
	errorsPkg := fn.Object().Pkg()
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "errors" {
			return errorsPkg, nil
		}
		return nil, fmt.Errorf("no package %s", path)
	})
	sp, err := x.modelSource("errors.Join", "errors·join", joinSliceSource(), imp)
	if err != nil {
		return nil, fmt.Errorf("the model of errors.Join of a slice: %w", err)
	}
	x.joinSlice = sp.Func("Join")
	x.joinTooLong = sp.Func("joinTooLong")
	return x.joinSlice, nil
}
