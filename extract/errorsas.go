package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// errors.As in a goroutine.
//
// errors.As(err, target) walks err's tree as errors.Is does (errorTree:
// the error, then what it wraps and joins, depth first) and stores the
// first error whose dynamic type is assignable to *target's type into
// *target, answering whether it found one. err is nil (false), of known
// dynamic type, or known only at run time (a case split over its
// candidates, as a type assertion is: typeAssertRef); the store is an
// ordinary write of *target, which races as any other. An error of the
// tree with an As or Unwrap method of its own is refused (the walk would
// call code the model does not follow here). Go's panics are bad states:
// a nil target, a target that is not a non-nil pointer, a *target of a
// type that is neither an interface nor implements error; each only where
// err is not nil, as Go checks err first.

// asCase is one alternative of errors.As: err is the error o (nil for a
// nil err) when cond holds.
type asCase struct {
	cond model.Expr
	o    *object
}

// errorsAs lowers errors.As(err, target) in a goroutine; ok is false for
// other calls and for an err the model does not compute.
func (p *proc) errorsAs(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (next int, ok bool) {
	if !isErrorsFunc(fn, "errors", "As") {
		return cur, false
	}
	s := p.s
	o, pos := p.callOrigin(fr, in, fn)
	cases, ok := s.asCases(args[0], pos)
	if !ok {
		return cur, false
	}
	r := p.resultReg(fr, in, types.Typ[types.Bool])
	set := func(from int, v int64, join int) {
		if r < 0 {
			p.emitTo(from, model.GuardOp(model.C(1)), join, pos, Origin{})
			return
		}
		p.emitTo(from, model.AssignOp(r, model.C(v)), join, pos, Origin{})
	}
	if len(cases) == 1 && cases[0].o == nil {
		fr.vals[in] = constVal(0)
		return cur, true
	}
	elem, bad := asTarget(args[1])
	if len(cases) == 1 && bad != "" {
		p.panicAt(panicSite{loc: cur, name: bad, pos: pos})
		return -1, true
	}
	if len(cases) == 1 {
		c, val := s.asMatch(cases[0].o, elem, pos)
		if c == nil {
			fr.vals[in] = constVal(0)
			return cur, true
		}
		next = p.storeTo(p.pointerArg(args[1].env[0], pos), val, nil, pos, o, cur)
		fr.vals[in] = constVal(1)
		return next, true
	}
	outs := s.asOutcomes(cases, elem, bad, pos)
	if len(outs) > maxCases {
		s.unsupported(pos, "errors.As with more than %d outcomes", maxCases)
	}
	join := p.newLoc(pos)
	for _, k := range outs {
		g := p.emit(cur, model.GuardOp(k.cond), pos, Origin{})
		switch {
		case k.panics:
			p.panicAt(panicSite{loc: g, name: bad, pos: pos})
		case k.match == nil:
			set(g, 0, join)
		default:
			set(p.storeTo(p.pointerArg(args[1].env[0], pos), k.val, nil, pos, o, g), 1, join)
		}
	}
	if r >= 0 {
		fr.vals[in] = intVal(model.R(r))
	}
	return join, true
}

// asOutcome is one outcome of errors.As, when cond holds: Go panics (a
// target it refuses), finds nothing (match nil), or stores val, what it
// stores for the error match of the tree.
type asOutcome struct {
	cond   model.Expr
	panics bool
	match  *object
	val    value
}

// asOutcomes groups the cases of errors.As into its outcomes, for a
// target of type *elem or one Go refuses (bad): errors that store the
// same error are one outcome (the joins a slice's elements make, each
// holding one of a few errors of the type).
func (s *system) asOutcomes(cases []asCase, elem types.Type, bad string, pos token.Pos) []asOutcome {
	var outs []asOutcome
	index := map[*object]int{}
	panicAt := -1
	add := func(i int, cond model.Expr) {
		outs[i].cond = model.Bin(model.OpOr, outs[i].cond, cond)
	}
	for _, k := range cases {
		var match *object
		var val value
		switch {
		case k.o == nil:
		case bad != "":
			if panicAt >= 0 {
				add(panicAt, k.cond)
				continue
			}
			panicAt = len(outs)
			outs = append(outs, asOutcome{cond: k.cond, panics: true})
			continue
		default:
			match, val = s.asMatch(k.o, elem, pos)
		}
		if i, seen := index[match]; seen {
			add(i, k.cond)
			continue
		}
		index[match] = len(outs)
		outs = append(outs, asOutcome{cond: k.cond, match: match, val: val})
	}
	return outs
}

// asCases returns the alternatives of err for errors.As; ok is false for
// an err the model does not compute.
func (s *system) asCases(err value, pos token.Pos) ([]asCase, bool) {
	switch err.kind {
	case vNil:
		return []asCase{{cond: model.C(1)}}, true
	case vIface:
		pl := err.env[0]
		if pl.kind != vPtr || pl.ptr.dynamic() || len(pl.ptr.path) != 0 || pl.ptr.ref != nil || pl.ptr.obj == nil {
			s.unsupported(pos, "errors.As on an error of type %s held by value", err.typ)
		}
		return []asCase{{cond: model.C(1), o: pl.ptr.obj}}, true
	case vRef:
		if len(err.objs) > maxAsErrors {
			s.unsupported(pos, "errors.As on an error that may be one of more than %d values", maxAsErrors)
		}
		cases := []asCase{{cond: model.Bin(model.OpEq, err.e, model.C(0))}}
		for _, o := range err.objs {
			cases = append(cases, asCase{cond: model.Bin(model.OpEq, err.e, model.C(s.idOf(o, pos))), o: o})
		}
		return cases, true
	}
	return nil, false
}

// maxAsErrors bounds the errors errors.As may walk in one call: its
// outcomes, which its case split follows, are at most maxCases.
const maxAsErrors = 16 * maxCases

// asTarget returns the type of *target for errors.As, or Go's panic
// message for a target it refuses.
func asTarget(target value) (elem types.Type, bad string) {
	if target.kind != vIface {
		return nil, "errors: target cannot be nil"
	}
	pt, isPtr := target.typ.Underlying().(*types.Pointer)
	if !isPtr || target.env[0].kind == vNil {
		return nil, "errors: target must be a non-nil pointer"
	}
	elem = pt.Elem()
	if _, isIface := elem.Underlying().(*types.Interface); !isIface && !types.Implements(elem, errorType.Underlying().(*types.Interface)) {
		return nil, "errors: *target must be interface or implement error"
	}
	return elem, ""
}

// asMatch returns the first error of o's tree whose dynamic type is
// assignable to elem and the value errors.As stores for it, or nil when
// none is.
func (s *system) asMatch(o *object, elem types.Type, pos token.Pos) (*object, value) {
	for _, c := range errorTree(o) {
		dt := dynType(c)
		if !s.isErrorObj(c) {
			ms := types.NewMethodSet(dt)
			for _, m := range []string{"As", "Unwrap"} {
				if ms.Lookup(nil, m) != nil {
					s.unsupported(pos, "errors.As on an error of type %s, which has a method %s", dt, m)
				}
			}
		}
		if !types.AssignableTo(dt, elem) {
			continue
		}
		_, toIface := elem.Underlying().(*types.Interface)
		switch {
		case toIface:
			return c, s.ifaceOfObj(c)
		case isObjPtr(elem) && !c.box && !c.byValue:
			return c, value{kind: vPtr, ptr: c.target()}
		case isScalarPayload(elem) && c.box:
			return c, constVal(c.boxVal)
		}
		s.unsupported(pos, "errors.As into a target of type *%s (an error held by value)", elem)
	}
	return nil, value{}
}
