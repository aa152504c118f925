package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Function values chosen at run time.
//
// A function value the lowering knows is a vFunc: the function and the
// values its closure captured, so that a call of it is inlined. When the
// paths that reach a join bring different functions (f := g; if c { f = h
// }), the join is a vFuncRef: a register holding the index of one of the
// alternatives (0 for nil), and a call of it is a case split that inlines
// each alternative under its index, with a nil-dereference panic for 0.
// The alternatives are the values the join's predecessors bring, so the
// target set is exact; a join on a loop's back edge, or a function value
// stored in shared memory by a goroutine, stays unsupported.

// allFuncs reports whether vs are function values, at least one of them
// not nil.
func allFuncs(vs []value) bool {
	some := false
	for _, v := range vs {
		switch v.kind {
		case vFunc:
			some = true
		case vNil:
		default:
			return false
		}
	}
	return some
}

// funcPhi makes the value of a join of function values.
func (p *proc) funcPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) value {
	var alts []value
	for _, v := range known {
		if v.kind != vFunc {
			continue
		}
		dup := false
		for _, a := range alts {
			if same(a, v) {
				dup = true
			}
		}
		if !dup {
			alts = append(alts, v)
		}
	}
	if len(alts) > maxCases {
		p.s.unsupported(phi.Pos(), "a function value that may be one of more than %d functions", maxCases)
	}
	r := p.newReg(p.regName(fr, phi), types.Typ[types.Int])
	p.holds(r, fr, phi)
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, int64(len(alts))}
	st.phiReg[phi] = r
	return value{kind: vFuncRef, e: model.R(r), alts: alts}
}

// funcIndex returns the index of v among the alternatives of fv.
func (s *system) funcIndex(fv, v value, pos token.Pos) model.Expr {
	switch v.kind {
	case vNil:
		return model.C(0)
	case vFuncRef:
		if len(v.alts) == len(fv.alts) {
			all := true
			for i := range v.alts {
				if !same(v.alts[i], fv.alts[i]) {
					all = false
				}
			}
			if all {
				return v.e
			}
		}
	case vFunc:
		for i, a := range fv.alts {
			if same(a, v) {
				return model.C(int64(i + 1))
			}
		}
	}
	s.unsupported(pos, "a function value chosen at run time among functions not known at the join (%s)", describe(v))
	return nil
}

// callFuncRef lowers a call of a function value chosen at run time.
func (p *proc) callFuncRef(fr *frame, in *ssa.Call, f value, args []value, cur int) int {
	var targets []callTarget
	for i, a := range f.alts {
		targets = append(targets, callTarget{
			cond: model.Bin(model.OpEq, f.e, model.C(int64(i+1))),
			fn:   a.fn,
			env:  a.env,
			args: args,
		})
	}
	return p.splitCall(fr, in, targets, model.Bin(model.OpEq, f.e, model.C(0)), cur)
}
