package extract

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Errors made by errors.New.
//
// errors.New (and fmt.Errorf that wraps no error, whose arguments cannot
// reach the system's memory) returns a distinct object on every call,
// compared by identity: the package-level sentinels of Go code (var
// errClosed = errors.New("closed")), and the errors goroutines make and
// return. Each call of the package's initialisation or of a system's setup
// makes an object of a type of the extractor's own, *errors.errorString,
// whose message is an interned string, or strAny where the model does not
// compute it (a format with verbs, a string known only at run time:
// strings.go); the error is an interface value holding a pointer to it
// (ifacecells.go). Its Error method returns the message (errorCall), and
// errors.Is compares by identity when no error that may reach it has an
// Unwrap or Is method. A goroutine's call outside a loop makes one object
// for the call, as it runs at most once; a call in a loop of a goroutine
// takes the next of a pool of objects on each execution (errorPool), as an
// allocation does.

// errorType returns the type of the errors errors.New makes.
func (x *extractor) errorType() *types.Named {
	if x.errType != nil {
		return x.errType
	}
	pkg := types.NewPackage("errors", "errors")
	obj := types.NewTypeName(token.NoPos, pkg, "errorString", nil)
	st := types.NewStruct([]*types.Var{types.NewField(token.NoPos, pkg, "s", types.Typ[types.String], false)}, nil)
	named := types.NewNamed(obj, st, nil)
	recv := types.NewVar(token.NoPos, pkg, "e", types.NewPointer(named))
	res := types.NewTuple(types.NewVar(token.NoPos, pkg, "", types.Typ[types.String]))
	named.AddMethod(types.NewFunc(token.NoPos, pkg, "Error", types.NewSignatureType(recv, nil, nil, nil, res, false)))
	x.errType = named
	return named
}

// isErrorsFunc reports whether fn is the function pkg.name.
func isErrorsFunc(fn *ssa.Function, pkg, name string) bool {
	obj := fn.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == pkg && fn.Name() == name && fn.Signature.Recv() == nil
}

// errorMessage returns the message of a call of errors.New or fmt.Errorf
// that makes a new error: the id of its interned message, or strAny where
// the model does not compute it (a string known only at run time, a
// format with verbs), and a name for the error. ok is false for other
// calls, and for a fmt.Errorf that wraps an error (%w) or whose arguments
// may reach the system's memory (plainErrorf; readOnly, nil outside the
// processes, tells the values a goroutine knows to be only readable).
func (s *system) errorMessage(fn *ssa.Function, c *ssa.CallCommon, args []value, readOnly func(ssa.Value) bool) (msg int64, name string, ok bool) {
	switch {
	case isErrorsFunc(fn, "errors", "New"):
		if str, known := s.stringOf(args[0]); known {
			return s.intern(str), "errors.New(" + quote(str) + ")", true
		}
		if args[0].kind == vInt {
			return strAny, "errors.New(?)", true
		}
	case isErrorsFunc(fn, "fmt", "Errorf"):
		k, isConst := c.Args[0].(*ssa.Const)
		if !isConst || k.Value == nil || k.Value.Kind() != constant.String {
			return 0, "", false
		}
		f := constant.StringVal(k.Value)
		if !strings.Contains(f, "%") && isNilConst(c.Args[1]) {
			return s.intern(f), "fmt.Errorf(" + quote(f) + ")", true
		}
		return strAny, "fmt.Errorf(" + quote(f) + ", ...)", plainErrorf(f, c.Args[1], readOnly)
	}
	return 0, "", false
}

// newError makes the error errors.New returns, in shared memory: msg is
// the id of its message, name names it.
func (s *system) newError(msg int64, name string) value {
	t := s.x.errorType()
	o := s.newObject(name, t, nil, -1)
	o.boxVal = msg
	s.mem[pointer{obj: o, path: []step{{field: 0}}}.key()] = constVal(o.boxVal)
	return value{kind: vIface, typ: types.NewPointer(t), env: []value{{kind: vPtr, ptr: pointer{obj: o}}}}
}

// errorText is the message of the error made by errors.New that o is:
// Error's result.
func (s *system) errorText(o *object) value {
	if o.boxVal == strAny {
		return s.uncomputedString("the message of " + o.name + ", which fencecheck does not compute")
	}
	return constVal(o.boxVal)
}

// isErrorObj reports whether o is an error made by errors.New.
func (s *system) isErrorObj(o *object) bool {
	return o != nil && !o.box && types.Identical(o.typ, s.x.errorType())
}

func quote(s string) string {
	return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\""
}

// errorsCall computes a call of errors.New or fmt.Errorf that makes a new
// error, and errors.Is; ok is false for other calls. readOnly is as for
// errorMessage.
func (s *system) errorsCall(fn *ssa.Function, c *ssa.CallCommon, args []value, pos token.Pos, readOnly func(ssa.Value) bool) (value, bool) {
	if isErrorsFunc(fn, "errors", "Is") {
		if args[0].kind == vOpaque || args[1].kind == vOpaque {
			// An error the model does not compute: so is the answer.
			return value{}, false
		}
		return s.errorsIs(args[0], args[1], pos), true
	}
	msg, name, ok := s.errorMessage(fn, c, args, readOnly)
	if !ok {
		return value{}, false
	}
	return s.newError(msg, name), true
}

// errorsIs computes errors.Is(err, target) when it is an identity test:
// no error err may hold has an Unwrap or Is method.
func (s *system) errorsIs(err, target value, pos token.Pos) value {
	check := func(dt types.Type) {
		ms := types.NewMethodSet(dt)
		for _, m := range []string{"Unwrap", "Is"} {
			if ms.Lookup(nil, m) != nil {
				s.unsupported(pos, "errors.Is on an error of type %s, which has a method %s", dt, m)
			}
		}
	}
	switch err.kind {
	case vRef:
		for _, o := range err.objs {
			check(dynType(o))
		}
	case vIface:
		check(err.typ)
	}
	return s.ifaceEqual(err, target, pos)
}

// ifaceEqual compares two interface values as Go's == does.
func (s *system) ifaceEqual(x, y value, pos token.Pos) value {
	s.refuseBoxCompare(x, y, pos)
	s.refuseSliceCompare(x, y, pos)
	if x.kind != vRef && y.kind != vRef {
		switch {
		case x.kind == vNil || y.kind == vNil:
			return constVal(b2i(x.kind == y.kind))
		case x.kind != vIface || y.kind != vIface:
			s.unsupported(pos, "comparing %s with %s", describe(x), describe(y))
		case !types.Identical(x.typ, y.typ):
			return constVal(0)
		case isObjPtr(x.typ):
			a, b := x.env[0], y.env[0]
			if a.kind == vNil || b.kind == vNil {
				return constVal(b2i(a.kind == b.kind))
			}
			if a.kind == vPtr && b.kind == vPtr && !a.ptr.dynamic() && !b.ptr.dynamic() {
				return constVal(b2i(a.ptr.equal(b.ptr)))
			}
			return intVal(model.Bin(model.OpEq, s.refExpr(a, pos), s.refExpr(b, pos)))
		}
		a, b := x.env[0], y.env[0]
		if floatBits(x.typ) != 0 {
			return s.floatPayloadEqual(x.typ, a, b, pos)
		}
		ca, oka := a.constant()
		cb, okb := b.constant()
		if oka && okb {
			return constVal(b2i(ca == cb))
		}
		return intVal(model.Bin(model.OpEq, s.asInt(a, pos), s.asInt(b, pos)))
	}
	if !isRefLike(x) || !isRefLike(y) {
		s.unsupported(pos, "comparing %s with %s", describe(x), describe(y))
	}
	ex, ey := s.refExpr(x, pos), s.refExpr(y, pos)
	return intVal(s.floatIDEq(ex, ey))
}

// errorCall lowers err.Error() in a goroutine where err is an error made
// by errors.New (its message), may be one of several such errors or nil (a
// case split; nil panics, as Go's nil dereference does), or is an error
// returned by a call the model does not run (where it is not nil, a
// string the model does not compute: that call cannot reach the system's
// memory, nor can its error's method). ok is false for any other call.
func (p *proc) errorCall(fr *frame, in *ssa.Call, cur int) (next int, ok bool) {
	c := in.Common()
	if !c.IsInvoke() || c.Method.Name() != "Error" || len(c.Args) != 0 {
		return cur, false
	}
	s := p.s
	recv := s.get(fr, c.Value)
	pos := in.Pos()
	nilDeref := func(isNil model.Expr) {
		g := p.emit(cur, model.GuardOp(isNil), pos, Origin{})
		p.panicAt(panicSite{loc: g, name: "invalid memory address or nil pointer dereference", pos: pos})
	}
	switch recv.kind {
	case vIface:
		pl := recv.env[0]
		if pl.kind != vPtr || pl.ptr.dynamic() || !s.isErrorObj(pl.ptr.obj) {
			return cur, false
		}
		if used(in) {
			fr.vals[in] = s.errorText(pl.ptr.obj)
		}
		return cur, true
	case vRef:
		if len(recv.objs) == 0 || slices.ContainsFunc(recv.objs, func(o *object) bool { return !s.isErrorObj(o) }) {
			return cur, false
		}
		if len(recv.objs) > maxCases {
			s.unsupported(pos, "a method call on an interface value that may hold more than %d values", maxCases)
		}
		nilDeref(model.Bin(model.OpEq, recv.e, model.C(0)))
		r := p.resultReg(fr, in, types.Typ[types.String])
		join := p.newLoc(pos)
		for _, o := range recv.objs {
			g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, recv.e, model.C(s.idOf(o, pos)))), pos, Origin{})
			if r < 0 {
				p.emitTo(g, model.GuardOp(model.C(1)), join, pos, Origin{})
				continue
			}
			p.emitTo(g, model.AssignOp(r, s.errorText(o).e), join, pos, Origin{})
		}
		if r >= 0 {
			fr.vals[in] = intVal(model.R(r))
		}
		return join, true
	case vOpaque:
		if recv.e == nil || !strings.HasPrefix(recv.why, "the error returned by ") {
			return cur, false
		}
		nilDeref(model.Bin(model.OpEq, recv.e, model.C(0)))
		next := p.emit(cur, model.GuardOp(model.Bin(model.OpNe, recv.e, model.C(0))), pos, Origin{})
		if used(in) {
			fr.vals[in] = s.uncomputedString("the message of " + strings.TrimPrefix(recv.why, "the "))
		}
		return next, true
	}
	return cur, false
}

// errorPool lowers, in a loop of a goroutine, a call of errors.New or
// fmt.Errorf that makes a new error (msg and name as errorMessage gives
// them): each execution makes a distinct error, the next of a pool of
// maxPool objects (pointers.go's allocPool); one execution more leaves
// the domain of the pool's count, which the analysis reports as
// inconclusive, naming it.
func (p *proc) errorPool(fr *frame, in *ssa.Call, msg int64, name string, cur int) int {
	s := p.s
	first := s.newError(msg, name).env[0].ptr.obj
	objs := s.poolObjects(first, -1, in.Pos())
	for _, o := range objs[1:] {
		o.boxVal = msg
		s.mem[pointer{obj: o, path: []step{{field: 0}}}.key()] = constVal(msg)
	}
	s.noteIface(types.NewPointer(s.x.errorType()))
	if !used(in) {
		return cur
	}
	r := p.newReg(p.regName(fr, in), errorType)
	p.holds(r, fr, in)
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: errorType}
	return p.pickFromPool(objs, r, name, in.Pos(), cur, nil)
}
