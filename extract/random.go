package extract

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Random numbers.
//
// rand.Intn(n) and its relatives of math/rand and math/rand/v2 (Int31n,
// Int63n, IntN, Int32N, Int64N, UintN, Uint32N, Uint64N), with n a constant
// of at most maxRandChoices, return any value of [0, n): a choice between n
// steps, one for each value, so that every value is explored. Other results
// of those packages are values only pure calls may use.

// maxRandChoices bounds the n of a modelled rand.Intn(n).
const maxRandChoices = 16

// randBounded reports whether fn is a bounded random integer function of
// math/rand or math/rand/v2 (a function or a method of *Rand).
func randBounded(fn *ssa.Function) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	if path := obj.Pkg().Path(); path != "math/rand" && path != "math/rand/v2" {
		return false
	}
	switch fn.Name() {
	case "Intn", "Int31n", "Int63n", "IntN", "Int32N", "Int64N", "UintN", "Uint32N", "Uint64N":
		return true
	}
	return false
}

// randCall lowers r := rand.Intn(n) of a process: n steps, each setting r
// to one value of [0, n).
func (p *proc) randCall(fr *frame, in *ssa.Call, args []value, cur int) int {
	s := p.s
	n, ok := args[len(args)-1].constant()
	if !ok || n <= 0 || n > maxRandChoices {
		s.unsupported(in.Pos(), "%s with a bound other than a constant from 1 to %d", in.Call.StaticCallee().Name(), maxRandChoices)
	}
	if !used(in) {
		return cur
	}
	r, next := p.choiceReg(fr, in)
	for k := range n {
		p.emitTo(cur, model.AssignOp(r, model.C(k)), next, in.Pos(), Origin{})
	}
	return next
}
