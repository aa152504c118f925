package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Run-time refusals.
//
// Some constructs the model cannot lower are reached by the code of a
// goroutine only on a path that a run may never take: a library's queue
// grows its buffer with make([]T, 2*n) only once it is full. Refusing the
// whole system where the lowering meets the construct would refuse code
// whose runs never execute it. Instead the construct becomes a run-time
// refusal: a transition that sets a register whose domain is {0} to 1, so
// that an engine that reaches it answers inconclusive, naming the
// construct and its position, and the path ends there. A system whose
// runs never reach it is decided as usual.

// refuseAt emits from cur the run-time refusal of what (a description of
// the construct, at pos) and returns -1: nothing follows it.
func (p *proc) refuseAt(cur int, what string, pos token.Pos) int {
	r := p.newReg("unsupported", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, 0}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{"the number of runs of " + what + " (fencecheck models none)", pos}
	p.emit(cur, model.AssignOp(r, model.C(1)), pos, Origin{})
	return -1
}

// uncomputedOperand describes x op y when an operand is the result of a
// call the model does not run (time.Now().UnixNano(), say) and the other
// is not nil. A comparison is either answer (Go's is one of the two, so
// this only adds behaviours); any other operator is a run-time refusal
// where a goroutine reaches it, so that a library's path that a system
// never takes does not refuse the system.
func (s *system) uncomputedOperand(fr *frame, in *ssa.BinOp) (string, bool) {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if y.kind == vOpaque && y.uncomputed {
		x, y = y, x
	}
	if x.kind != vOpaque || !x.uncomputed || y.kind == vNil {
		return "", false
	}
	return fmt.Sprintf("the operator %s on %s", in.Op, strings.TrimSuffix(x.why, ", which fencecheck does not compute")), true
}

// isComparison reports whether op is one of Go's comparison operators,
// whose answer on a value the model does not compute is either boolean.
func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// makeSliceProc lowers make([]T, n[, c]) in a goroutine. A length or a
// capacity known only at run time is a run-time refusal.
func (p *proc) makeSliceProc(fr *frame, in *ssa.MakeSlice, cur int) (value, int) {
	s := p.s
	_, lenOK := s.get(fr, in.Len).constant()
	capOK := true
	if in.Cap != nil {
		_, capOK = s.get(fr, in.Cap).constant()
	}
	if !lenOK || !capOK {
		what := "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n) with a length known only at run time"
		if lenOK {
			what = "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n, c) with a capacity known only at run time"
		}
		return value{}, p.refuseAt(cur, what, in.Pos())
	}
	return s.makeSlice(fr, in, p.idx), cur
}
