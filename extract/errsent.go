package extract

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Errors made by errors.New.
//
// errors.New (and fmt.Errorf with a constant format that wraps no error,
// of booleans, numbers and strings) returns a distinct object on every
// call, compared by identity: the
// package-level sentinels of Go code (var errClosed = errors.New("closed")).
// Each call of the package's initialisation or of a system's setup makes an
// object of a type of the extractor's own, *errors.errorString, whose
// message is an interned string (strings.go); the error is an interface
// value holding a pointer to it (ifacecells.go). Its Error method returns
// the message, and errors.Is compares by identity when no error that may
// reach it has an Unwrap or Is method. A goroutine's call outside a loop
// makes one object for the call, as it runs at most once; a call in a loop
// of a goroutine is one whose result is not computed (calls.go), and
// storing or comparing that error is refused.

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

// errorMessage returns the message of a call of errors.New, or of
// fmt.Errorf with a constant format without verbs; ok is false for other
// calls.
func (s *system) errorMessage(fn *ssa.Function, c *ssa.CallCommon, args []value) (msg string, ok bool) {
	switch {
	case isErrorsFunc(fn, "errors", "New"):
		return s.stringOf(args[0])
	case isErrorsFunc(fn, "fmt", "Errorf"):
		k, isConst := c.Args[0].(*ssa.Const)
		if !isConst || k.Value == nil || k.Value.Kind() != constant.String {
			return "", false
		}
		f := constant.StringVal(k.Value)
		if strings.Contains(f, "%") || !isNilConst(c.Args[1]) {
			// The message is the format: no Error call may read it.
			return f, plainErrorf(f, c.Args[1])
		}
		return f, true
	}
	return "", false
}

// newError makes the error errors.New(msg) returns, in shared memory.
func (s *system) newError(msg string) value {
	t := s.x.errorType()
	o := s.newObject("errors.New("+quote(msg)+")", t, nil, -1)
	o.boxVal = s.intern(msg)
	s.mem[pointer{obj: o, path: []step{{field: 0}}}.key()] = constVal(o.boxVal)
	return value{kind: vIface, typ: types.NewPointer(t), env: []value{{kind: vPtr, ptr: pointer{obj: o}}}}
}

func quote(s string) string {
	return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\""
}

// errorsCall computes a call of errors.New or fmt.Errorf that makes a new
// error, and errors.Is; ok is false for other calls. inLoop, nil outside
// the processes, says whether the call is in a loop of a goroutine.
func (s *system) errorsCall(fn *ssa.Function, c *ssa.CallCommon, args []value, pos token.Pos, inLoop func() bool) (value, bool) {
	if isErrorsFunc(fn, "errors", "Is") {
		if args[0].kind == vOpaque || args[1].kind == vOpaque {
			// An error the model does not compute: so is the answer.
			return value{}, false
		}
		return s.errorsIs(args[0], args[1], pos), true
	}
	msg, ok := s.errorMessage(fn, c, args)
	if !ok {
		return value{}, false
	}
	if inLoop != nil && inLoop() {
		// Each call makes a distinct error: left to the calls whose
		// results are not computed (a nil or non-nil choice).
		return value{}, false
	}
	return s.newError(msg), true
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
