package extract

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Interface values holding integers known only at run time.
//
// An interface value is a heap id, and a non-pointer payload has a box per
// constant (ifacecells.go). A payload a goroutine computes (an int loaded
// from memory, a loop counter) is a register: its interface value is the
// box of whatever value the register holds, Σ (e == v) * id(any(v)) over
// the boxes of its dynamic type. Which values it may hold is found by the
// domain inference once the round is lowered (noteIfaceProbes): every
// value without a box gets one, and another round lowers the system with
// them. A value without a box that a run still reaches (more than
// maxRuntimeBoxes values, or one the inference could not bound) gives the
// id -1, outside the domain of every cell that holds interface values: the
// engine reports that cell's value as a fault (inconclusive), never a
// wrong answer.

// maxRuntimeBoxes bounds the boxes one run-time payload adds.
const maxRuntimeBoxes = 64

// ifaceProbe is an interface value of dynamic type typ whose payload e is
// known only at run time in process p.
type ifaceProbe struct {
	p   *proc
	e   model.Expr
	typ types.Type
}

// runtimeBoxExpr returns the heap id expression of an interface value of
// dynamic type t holding e, an expression of the process being lowered.
func (s *system) runtimeBoxExpr(t types.Type, e model.Expr, pos token.Pos) model.Expr {
	if s.curProc == nil {
		s.unsupported(pos, "an interface value holding a %s known only at run time in the set-up", t)
	}
	s.ifaceProbes = append(s.ifaceProbes, ifaceProbe{p: s.curProc, e: e, typ: t})
	var vals []int64
	for _, o := range s.heap.boxes {
		if types.Identical(o.typ, t) {
			vals = append(vals, o.boxVal)
		}
	}
	slices.Sort(vals)
	var sum model.Expr
	// e == e: the expression mentions the payload even without a box, so
	// that noteIfaceProbes finds the steps that use it.
	outside := model.Bin(model.OpEq, e, e)
	for i, v := range vals {
		is := model.Bin(model.OpEq, e, model.C(v))
		term := model.Bin(model.OpMul, is, model.C(s.boxID(t, v)))
		ne := model.Bin(model.OpNe, e, model.C(v))
		if i == 0 {
			sum, outside = term, ne
			continue
		}
		sum = model.Bin(model.OpAdd, sum, term)
		outside = model.Bin(model.OpAnd, outside, ne)
	}
	miss := model.Bin(model.OpMul, outside, model.C(-1))
	if sum == nil {
		return miss
	}
	return model.Bin(model.OpAdd, sum, miss)
}

// noteIfaceProbes looks, after the domain inference, at the payloads p
// boxes at run time: states are p's abstract registers at each location,
// vars the shared variables'. A payload whose values it bounds gets a box
// for each, for the next round.
func (s *system) noteIfaceProbes(p *proc, states [][]abs, vars []abs) {
	for _, pr := range s.ifaceProbes {
		if pr.p != p {
			continue
		}
		// The payload's values where a step uses its interface value.
		var a abs
		for _, t := range p.q.Trans {
			if st := states[t.From]; st != nil && opUses(t.Op, pr.e) {
				env := &absEnv{regs: st, vars: vars}
				a = join(a, env.eval(pr.e))
			}
		}
		vs, ok := a.values()
		if !ok || len(vs) > maxRuntimeBoxes {
			continue // a value without a box is a fault where it is reached
		}
		for _, v := range vs {
			if isString(pr.typ) {
				if _, known := s.stringOf(constVal(v)); !known && v != strAny {
					continue
				}
			}
			s.boxID(pr.typ, v)
		}
	}
}

// opUses reports whether an expression of o (or of its atomic body) has e
// as a subexpression.
func opUses(o model.Op, e model.Expr) bool {
	found := false
	if o.Expr != nil {
		model.WalkExpr(o.Expr, func(x model.Expr) {
			if !found && x == e {
				found = true
			}
		})
	}
	for _, b := range o.Body {
		found = found || opUses(b, e)
	}
	return found
}
