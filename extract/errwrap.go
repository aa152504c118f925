package extract

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Errors that wrap another (fmt.Errorf with %w).
//
// fmt.Errorf whose format has one %w verb, of nil or an error made by
// errors.New or by such a fmt.Errorf (a sentinel, context.Canceled, an error
// a goroutine made), makes an object of a type of the extractor's own,
// *fmt.wrapError, whose message is a string the model does not compute and
// which remembers the error it wraps. Where that error is known only at run
// time, the call splits over what it is, with an object for each error
// errors.New made, and a run-time refusal for the others (makeError).
// errors.Is follows the chain: err is target, or err wraps, directly or not,
// an error that is. Otherwise it is as errors.New's errors are (errsent.go):
// a fresh object per call, a pool in a goroutine's loop, compared by
// identity, Error giving its message. An operand of %w of another type
// (whose Error method formatting calls, which may read the system's memory),
// or a format with more than one %w, is not modelled: the result is an error
// the model does not compute.

// wrapType returns the type of the errors fmt.Errorf makes with %w.
func (x *extractor) wrapType() *types.Named {
	if x.wrapErrType != nil {
		return x.wrapErrType
	}
	named, recv := newErrorType("fmt", "wrapError", func(pkg *types.Package) []*types.Var {
		return []*types.Var{
			types.NewField(token.NoPos, pkg, "msg", types.Typ[types.String], false),
			types.NewField(token.NoPos, pkg, "err", errorType, false),
		}
	})
	pkg := recv.Pkg()
	res := types.NewTuple(types.NewVar(token.NoPos, pkg, "", errorType))
	named.AddMethod(types.NewFunc(token.NoPos, pkg, "Unwrap", types.NewSignatureType(recv, nil, nil, nil, res, false)))
	x.wrapErrType = named
	return named
}

// isMadeError reports whether t is the type of the objects errors.New or
// fmt.Errorf makes (errorString or wrapError).
func (x *extractor) isMadeError(t types.Type) bool {
	return types.Identical(t, x.errorType()) || types.Identical(t, x.wrapType())
}

// wrapArg returns the index, among the arguments after the format, of the
// operand of the one %w verb of format. ok is false when format has no %w,
// more than one, or an explicit argument index or a * width or precision
// (which this count of operands does not follow).
func wrapArg(format string) (int, bool) {
	idx, n, found := -1, 0, false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return 0, false
		}
		switch format[i] {
		case '%':
			continue
		case '[', '*':
			return 0, false
		case 'w':
			if found {
				return 0, false
			}
			idx, found = n, true
		}
		n++
	}
	return idx, found
}

// wrapped returns the object of an error the lowering knows that fmt.Errorf
// may wrap, nil for nil. ok is false for any other value.
func (s *system) wrapped(v value) (*object, bool) {
	switch v.kind {
	case vNil:
		return nil, true
	case vIface:
		pl := v.env[0]
		if pl.kind == vPtr && !pl.ptr.dynamic() && len(pl.ptr.path) == 0 && pl.ptr.ref == nil && s.isErrorObj(pl.ptr.obj) {
			return pl.ptr.obj, true
		}
	}
	return nil, false
}

// wrapSpec fills in spec for fmt.Errorf(format, args...) with a %w verb, in
// a frame fr whose values the operand has; ok is false when it is not
// modelled.
func (s *system) wrapSpec(spec *errSpec, format string, args ssa.Value, fr *frame) bool {
	k, ok := wrapArg(format)
	if !ok || fr == nil {
		return false
	}
	vals, ok := appendArgs(args)
	if !ok || k >= len(vals) {
		return false
	}
	x, ok := fr.vals[vals[k]]
	if !ok {
		return false
	}
	spec.wrap = true
	if x.kind == vRef {
		// Known only at run time: makeError splits over what it is.
		spec.wrapRef = &x
		return true
	}
	o, ok := s.wrapped(x)
	spec.wraps = o
	return ok
}

// errorChain returns o and the errors it wraps, outermost first.
func errorChain(o *object) []*object {
	var out []*object
	for ; o != nil; o = o.wraps {
		out = append(out, o)
	}
	return out
}

// unwrapsTo is the condition that errors.Is finds target (its heap id t)
// below the top of the chain of err (its heap id e, its candidates objs):
// err is a wrapping error whose chain holds target. Nil when no candidate
// wraps an error.
func (s *system) unwrapsTo(e, t model.Expr, objs []*object, pos token.Pos) model.Expr {
	var cond model.Expr
	for _, w := range objs {
		below := errorChain(w)[1:]
		if len(below) == 0 {
			continue
		}
		var holds model.Expr
		for _, c := range below {
			holds = orElse(holds, model.Bin(model.OpEq, t, model.C(s.idOf(c, pos))))
		}
		is := model.Bin(model.OpAnd, model.Bin(model.OpEq, e, model.C(s.idOf(w, pos))), holds)
		cond = orElse(cond, is)
	}
	return cond
}

// makeError lowers, in a goroutine, a call of errors.New or fmt.Errorf that
// makes the error spec describes. Outside a loop, with the error it wraps
// known, it is one object, made for the call (errsent.go); in a loop it is
// the next of a pool of them on each execution (errorPool). Where the error
// wrapped is known only at run time, the call splits over what it is: an
// object, or a pool, for each.
func (p *proc) makeError(fr *frame, in *ssa.Call, spec errSpec, inLoop bool, cur int) int {
	s := p.s
	if spec.wrapRef == nil && !inLoop {
		if used(in) {
			fr.vals[in] = s.newError(spec)
		}
		return cur
	}
	pos := in.Pos()
	type alt struct {
		cond model.Expr
		spec errSpec
	}
	alts := []alt{{spec: spec}}
	if w := spec.wrapRef; w != nil {
		alts = []alt{{cond: model.Bin(model.OpEq, w.e, model.C(0)), spec: spec}}
		var others model.Expr
		for _, o := range w.objs {
			is := model.Bin(model.OpEq, w.e, model.C(s.idOf(o, pos)))
			if !s.isErrorObj(o) || o.wraps != nil || types.Identical(o.typ, s.x.wrapType()) {
				others = orElse(others, is)
				continue
			}
			sp := spec
			sp.wraps = o
			alts = append(alts, alt{cond: is, spec: sp})
		}
		if others != nil {
			// Not an object for each: the objects a round makes would be
			// candidates of the next, which would make more.
			p.refuseAt(p.emit(cur, model.GuardOp(others), pos, Origin{}), "fmt.Errorf wrapping (%w) an error known only at run time that errors.New did not make", pos)
		}
	}
	r := p.newReg(p.regName(fr, in), errorType)
	p.holds(r, fr, in)
	join := p.newLoc(pos)
	var objs []*object
	for _, a := range alts {
		a.spec.wrapRef = nil
		g := cur
		if a.cond != nil {
			g = p.emit(cur, model.GuardOp(a.cond), pos, Origin{})
		}
		if !inLoop {
			o := s.newError(a.spec).env[0].ptr.obj
			s.noteIface(types.NewPointer(o.typ))
			objs = append(objs, o)
			p.emitTo(g, model.AssignOp(r, model.C(s.idOf(o, pos))), join, pos, Origin{})
			continue
		}
		pool := s.errorPool(a.spec, pos)
		objs = append(objs, pool...)
		p.emitTo(p.pickFromPool(pool, r, a.spec.name, pos, g, nil), model.NopOp(), join, pos, Origin{})
	}
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: errorType}
	return join
}
