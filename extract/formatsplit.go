package extract

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Formatting an integer known only at run time.
//
// strconv.Itoa(i), strconv.FormatInt(i, base), strconv.FormatUint and
// fmt.Sprint, Sprintf and Sprintln of one integer known only at run time,
// the other operands constants (a worker's key fmt.Sprintf("job-%d", n)
// for the n of its loop), give a string the model does not compute in the
// round that first meets them. The domain inference then finds the values
// the integer takes there (formatProbe); when they are at most
// maxFormatValues, the next round splits over them, each case the string
// Go formats, interned, so that the key is a map's known key and compares
// as Go compares it. A value outside those found, which no run reaches
// unless x86-TSO makes one, is a run-time refusal.

// maxFormatValues bounds the values of an integer that one call splits
// over.
const maxFormatValues = 64

// formatProbe is a call in process p, at location loc, that formats the
// integer e known only at run time.
type formatProbe struct {
	p    *proc
	site makeSite
	e    model.Expr
	loc  int
}

// formatRuntime lowers such a call in a goroutine: in the first round the
// result is a string the model does not compute (ok false, as for any
// other call), and a probe; once the inference gave the integer's values,
// a split over them. ok is false for any other call.
func (p *proc) formatRuntime(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	if fn.Pkg == nil || fn.Signature.Recv() != nil || !used(in) {
		return cur, false
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln":
	default:
		return cur, false
	}
	op, ok := p.formatOperand(fr, in)
	if !ok {
		return cur, false
	}
	x := s.get(fr, op)
	format := func(k int64) (value, bool) {
		old, had := fr.vals[op]
		fr.vals[op] = constVal(k)
		defer func() {
			if had {
				fr.vals[op] = old
			} else {
				delete(fr.vals, op)
			}
		}()
		sub := slices.Clone(args)
		for i, a := range in.Call.Args {
			if a == op {
				sub[i] = constVal(k)
			}
		}
		return s.formatCall(fr, in.Common(), fn, sub)
	}
	if _, ok := format(0); !ok {
		return cur, false // another operand is not a constant
	}
	pr := formatProbe{p: p, site: makeSite{p.idx, in.Pos()}, e: x.e, loc: cur}
	s.formatProbes = append(s.formatProbes, pr)
	vals, known := s.heap.hint.formatVals[pr.site]
	if !known {
		return cur, false
	}
	pos := in.Pos()
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	join := p.newLoc(pos)
	var found model.Expr
	var ids []int64
	for _, k := range vals {
		str, ok := format(k)
		if !ok {
			continue
		}
		ids = append(ids, str.e.(model.Const).Value)
		is := model.Bin(model.OpEq, x.e, model.C(k))
		found = orElse(found, is)
		p.emitTo(p.emit(cur, model.GuardOp(is), pos, Origin{}), model.AssignOp(r, str.e), join, pos, Origin{})
	}
	if found == nil {
		return cur, false
	}
	p.refuseAt(p.emit(cur, model.GuardOp(model.Not(found)), pos, Origin{}), fn.Pkg.Pkg.Path()+"."+fn.Name()+" of a value other than those fencecheck found there", pos)
	fr.vals[in] = value{kind: vInt, e: model.R(r), strIDs: slices.Compact(slices.Sorted(slices.Values(ids)))}
	return join, true
}

// maxConcatCases bounds the pairs of strings a concatenation splits over.
const maxConcatCases = 256

// concatKnown lowers x + y on strings in a goroutine where an operand is a
// string of a few known ids (strIDs) and the other one too or a
// constant: a split over the pairs, each the concatenation interned, and
// the result again a string of known ids. ok is false otherwise.
func (p *proc) concatKnown(fr *frame, in *ssa.BinOp, cur int) (int, bool) {
	s := p.s
	if in.Op != token.ADD || !isString(in.X.Type()) {
		return cur, false
	}
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if x.strIDs == nil && y.strIDs == nil {
		return cur, false
	}
	choices := func(v value) ([]int64, bool) {
		if v.strIDs != nil {
			return v.strIDs, true
		}
		if c, ok := v.constant(); ok && c != strAny {
			return []int64{c}, true
		}
		return nil, false
	}
	xs, okx := choices(x)
	ys, oky := choices(y)
	if !okx || !oky || len(xs)*len(ys) > maxConcatCases {
		return cur, false
	}
	pos := in.Pos()
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	join := p.newLoc(pos)
	var ids []int64
	for _, a := range xs {
		for _, b := range ys {
			sa, _ := s.stringOf(constVal(a))
			sb, _ := s.stringOf(constVal(b))
			id := s.intern(sa + sb)
			ids = append(ids, id)
			is := and(model.Bin(model.OpEq, x.e, model.C(a)), model.Bin(model.OpEq, y.e, model.C(b)))
			p.emitTo(p.emit(cur, model.GuardOp(is), pos, Origin{}), model.AssignOp(r, model.C(id)), join, pos, Origin{})
		}
	}
	fr.vals[in] = value{kind: vInt, e: model.R(r), strIDs: slices.Compact(slices.Sorted(slices.Values(ids)))}
	return join, true
}

// formatOperand returns the one operand of a fmt or strconv call that is
// an integer known only at run time (of a basic integer type, whose
// formatting no String method changes); ok is false when there is none
// or more than one.
func (p *proc) formatOperand(fr *frame, in *ssa.Call) (ssa.Value, bool) {
	var ops []ssa.Value
	consider := func(v ssa.Value) {
		b, isBasic := v.Type().(*types.Basic)
		if !isBasic || b.Info()&types.IsInteger == 0 {
			return
		}
		x := p.s.get(fr, v)
		if _, isConst := x.constant(); x.kind == vInt && !isConst {
			ops = append(ops, v)
		}
	}
	for _, a := range in.Call.Args {
		if sl, isSlice := a.(*ssa.Slice); isSlice {
			if elems, ok := varargsOnly(sl); ok {
				for _, mi := range elems {
					consider(mi.X)
				}
			}
			continue
		}
		consider(a)
	}
	if len(ops) != 1 {
		return nil, false
	}
	return ops[0], true
}

// noteFormatProbes looks, after the domain inference, at the integers p
// formats (states are its abstract registers at each location, vars the
// shared variables'): the values each takes at its probes, when at most
// maxFormatValues at a call, are the cases of the call's next round.
func (s *system) noteFormatProbes(p *proc, states [][]abs, vars []abs) {
	for _, pr := range s.formatProbes {
		if pr.p != p || states[pr.loc] == nil || s.formatUnknown[pr.site] {
			continue
		}
		env := &absEnv{regs: states[pr.loc], vars: vars}
		vs, ok := env.eval(pr.e).values()
		if ok {
			vs = slices.Compact(slices.Sorted(slices.Values(append(vs, s.heap.formatVals[pr.site]...))))
		}
		if !ok || len(vs) > maxFormatValues {
			if s.formatUnknown == nil {
				s.formatUnknown = map[makeSite]bool{}
			}
			s.formatUnknown[pr.site] = true
			delete(s.heap.formatVals, pr.site)
			continue
		}
		if s.heap.formatVals == nil {
			s.heap.formatVals = map[makeSite][]int64{}
		}
		s.heap.formatVals[pr.site] = vs
	}
}

// settleFormatProbes asks for another round when a call's values are new.
func (s *system) settleFormatProbes() {
	for site, vs := range s.heap.formatVals {
		if !slices.Equal(vs, s.heap.hint.formatVals[site]) {
			s.heapChange("an integer formatted at run time gets its values")
			return
		}
	}
}
