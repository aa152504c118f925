package extract

import (
	"fmt"
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
// allocation does (makeError, errwrap.go).

// errorType returns the type of the errors errors.New makes.
func (x *extractor) errorType() *types.Named {
	if x.errType == nil {
		x.errType, _ = newErrorType("errors", "errorString", func(pkg *types.Package) []*types.Var {
			return []*types.Var{types.NewField(token.NoPos, pkg, "s", types.Typ[types.String], false)}
		})
	}
	return x.errType
}

// newErrorType returns a struct type pkgPath.name of the extractor's own,
// with the fields fields makes in its package and the method Error() string
// on its pointer, and the method set's receiver, for more methods.
func newErrorType(pkgPath, name string, fields func(*types.Package) []*types.Var) (*types.Named, *types.Var) {
	pkg := types.NewPackage(pkgPath, pkgPath)
	named := types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), types.NewStruct(fields(pkg), nil), nil)
	recv := types.NewVar(token.NoPos, pkg, "e", types.NewPointer(named))
	res := types.NewTuple(types.NewVar(token.NoPos, pkg, "", types.Typ[types.String]))
	named.AddMethod(types.NewFunc(token.NoPos, pkg, "Error", types.NewSignatureType(recv, nil, nil, nil, res, false)))
	return named, recv
}

// isErrorsFunc reports whether fn is the function pkg.name.
func isErrorsFunc(fn *ssa.Function, pkg, name string) bool {
	obj := fn.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == pkg && fn.Name() == name && fn.Signature.Recv() == nil
}

// errSpec is what a call of errors.New, fmt.Errorf or errors.Join makes:
// an error whose message is msg (the id of an interned string, or strAny
// where the model does not compute it: a string known only at run time, a
// format with verbs), named name; with wrap, a *fmt.wrapError that wraps
// the error wraps (nil for nil: errwrap.go); with join, an
// *errors.joinError that holds the errors joins.
type errSpec struct {
	msg int64
	// minLen is a length a message msg that is strAny has at least.
	minLen int64
	name   string
	wrap   bool
	wraps  *object
	join   bool
	joins  []*object
	// refs are, in a goroutine, the errors wrapped or joined that are
	// known only at run time (makeError splits over what they are), and
	// nonNil says of each whether a branch the call lies under tested it
	// is not nil (if err != nil { all = errors.Join(all, err) }).
	refs   []*value
	nonNil []bool
	// around, for a wrap whose format's only verb is its %w (fmt.Errorf(
	// "fetch: %w", err)), the text before and after it: the message is
	// the wrapped error's between them.
	around *[2]string
	// refAt is, for each of refs of a join, the number of joins that
	// precede it among the operands: errors.Join keeps its operands'
	// order, which errors.As and Unwrap() []error see.
	refAt []int
}

// isNil reports whether the call returns nil: errors.Join of nothing but
// nil errors.
func (spec errSpec) isNil() bool {
	return spec.join && len(spec.joins) == 0 && len(spec.refs) == 0
}

// errorSpec returns what a call of errors.New or fmt.Errorf makes. ok is
// false for other calls, and for a fmt.Errorf whose arguments may reach the
// system's memory (plainArgs) or whose %w is not modelled (wrapSpec). fr
// is the frame of the call in a goroutine, whose values tell what the
// arguments are, or nil.
func (s *system) errorSpec(fn *ssa.Function, c *ssa.CallCommon, args []value, fr *frame) (spec errSpec, ok bool) {
	switch {
	case isErrorsFunc(fn, "errors", "New"):
		if str, known := s.stringOf(args[0]); known {
			return errSpec{msg: s.intern(str), name: "errors.New(" + quote(str) + ")"}, true
		}
		if args[0].kind == vInt {
			return errSpec{msg: strAny, name: "errors.New(?)"}, true
		}
	case isErrorsFunc(fn, "fmt", "Errorf"):
		k, isConst := c.Args[0].(*ssa.Const)
		if !isConst || k.Value == nil || k.Value.Kind() != constant.String {
			return errSpec{}, false
		}
		f := constant.StringVal(k.Value)
		if !strings.Contains(f, "%") && isNilConst(c.Args[1]) {
			return errSpec{msg: s.intern(f), name: "fmt.Errorf(" + quote(f) + ")"}, true
		}
		spec := errSpec{msg: strAny, minLen: literalLen(f), name: "fmt.Errorf(" + quote(f) + ", ...)"}
		var readOnly func(ssa.Value) bool
		if fr != nil {
			readOnly = func(v ssa.Value) bool {
				x, ok := fr.vals[v]
				return ok && s.readOnlyArg(x)
			}
		}
		if strings.Contains(f, "%w") && !s.wrapSpec(&spec, f, c.Args[1], fr) {
			return errSpec{}, false
		}
		if before, after, ok := onlyWrapVerb(f); ok && spec.wrap {
			if vals, ok := appendArgs(c.Args[1]); ok && len(vals) == 1 {
				spec.around = &[2]string{before, after}
			}
		}
		if s.fmtMethodArg(fr, c.Args) != "" {
			return errSpec{}, false // its message calls the program's own methods
		}
		return spec, plainArgs(c.Args[1], readOnly)
	case isErrorsFunc(fn, "errors", "Join"):
		return s.joinSpec(c.Args[0], fr)
	}
	return errSpec{}, false
}

// specType is the type of the error spec describes: errors.New's,
// fmt.Errorf's with %w, or errors.Join's.
func (x *extractor) specType(spec errSpec) types.Type {
	switch {
	case spec.wrap:
		return x.wrapType()
	case spec.join:
		return x.joinType()
	}
	return x.errorType()
}

// newError makes the error spec describes, in shared memory.
func (s *system) newError(spec errSpec) value {
	t := s.x.specType(spec)
	o := s.newObject(spec.name, t, nil, -1)
	s.fillError(o, spec)
	return errIface(o)
}

// errIface is the interface value of the error o.
func errIface(o *object) value {
	return value{kind: vIface, typ: types.NewPointer(o.typ), env: []value{{kind: vPtr, ptr: pointer{obj: o}}}}
}

// fillError gives o, an object of the type of spec's errors, what spec says.
func (s *system) fillError(o *object, spec errSpec) {
	msg := s.madeMessage(spec)
	if o.fromHint && len(s.procs) > 0 && (o.boxVal != msg || o.msgMinLen != spec.minLen) {
		// A read lowered before this call took the round before's.
		s.heapChange("the message of a made error differs between rounds")
	}
	o.boxVal, o.msgMinLen = msg, spec.minLen
	s.fillTree(o, spec)
	s.mem[pointer{obj: o, path: []step{{field: 0}}}.key()] = constVal(o.boxVal)
}

// madeMessage is the message of the error spec describes: for a join,
// the messages of the errors it holds, one per line, as joinError's Error
// writes them; for a wrap whose only verb is %w, the format around the
// wrapped error's; strAny where one of those is not known (an error of
// the program's own type, whose Error the model does not run here).
func (s *system) madeMessage(spec errSpec) int64 {
	if spec.msg != strAny {
		return spec.msg
	}
	text := func(o *object) (string, bool) {
		if !s.isErrorObj(o) || o.boxVal == strAny {
			return "", false
		}
		return s.stringOf(constVal(o.boxVal))
	}
	switch {
	case spec.join && len(spec.refs) == 0:
		var msgs []string
		for _, j := range spec.joins {
			m, ok := text(j)
			if !ok {
				return strAny
			}
			msgs = append(msgs, m)
		}
		return s.intern(strings.Join(msgs, "\n"))
	case spec.wrap && spec.around != nil && spec.wraps != nil && len(spec.refs) == 0:
		if m, ok := text(spec.wraps); ok {
			return s.intern(spec.around[0] + m + spec.around[1])
		}
	}
	return strAny
}

// onlyWrapVerb splits format, whose only verb is one plain %w, around it
// (a %% is a percent sign); ok is false for any other format.
func onlyWrapVerb(format string) (before, after string, ok bool) {
	var b strings.Builder
	found := false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return "", "", false
		}
		i++
		switch {
		case format[i] == '%':
			b.WriteByte('%')
		case format[i] == 'w' && !found:
			before, found = b.String(), true
			b.Reset()
		default:
			return "", "", false
		}
	}
	return before, b.String(), found
}

// errorText is the message of the error made by errors.New or fmt.Errorf
// that o is: Error's result.
func (s *system) errorText(o *object) value {
	if o.boxVal == strAny {
		v := s.uncomputedString("the message of " + o.name + ", which fencecheck does not compute")
		v.minLen = o.msgMinLen
		return v
	}
	return constVal(o.boxVal)
}

// isErrorObj reports whether o is an error made by errors.New or
// fmt.Errorf.
func (s *system) isErrorObj(o *object) bool {
	return o != nil && !o.box && s.x.isMadeError(o.typ)
}

// isErrorLeaf reports whether o is an object of the program's own that a
// pointer to is an error (&MyError{...}): errors.Join and fmt.Errorf's %w
// may hold it, a leaf of their trees (errors.Is and errors.As refuse one
// with an Unwrap, Is or As method).
func (s *system) isErrorLeaf(o *object) bool {
	return o != nil && !o.box && !o.byValue && !s.x.isMadeError(o.typ) &&
		types.Implements(types.NewPointer(o.typ), errorType.Underlying().(*types.Interface))
}

// ownErrorIn returns an error of the program's own type that o, an error
// errors.Join or fmt.Errorf made, joins or wraps, at any depth, or nil:
// Go's Error of o calls that error's Error method, which the model does
// not run there.
func (s *system) ownErrorIn(o *object) *object {
	if !s.isErrorObj(o) {
		return nil
	}
	for _, c := range errorTree(o)[1:] {
		if !s.isErrorObj(c) {
			return c
		}
	}
	return nil
}

// ownErrorWhy is the refusal of the message of an error that holds own,
// an error of the program's own type: its Error (or, for formatting, a
// value whose Error formatting calls).
func ownErrorWhy(own *object, formatting bool) string {
	if formatting {
		return fmt.Sprintf("an error that joins or wraps one of type %s, whose method Error formatting calls (fencecheck does not run it there)", dynType(own))
	}
	return fmt.Sprintf("the message of an error that joins or wraps one of type %s (Go's Error calls that error's Error, which fencecheck does not run there)", dynType(own))
}

func quote(s string) string {
	return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\""
}

// errorsCall computes a call of errors.New or fmt.Errorf that makes a new
// error, and errors.Is; ok is false for other calls. fr is as for
// errorSpec.
func (s *system) errorsCall(fn *ssa.Function, c *ssa.CallCommon, args []value, pos token.Pos, fr *frame) (value, bool) {
	if isErrorsFunc(fn, "errors", "Is") {
		if args[0].kind == vOpaque || args[1].kind == vOpaque {
			// An error the model does not compute: so is the answer.
			return value{}, false
		}
		return s.errorsIs(args[0], args[1], pos), true
	}
	if isErrorsFunc(fn, "errors", "Unwrap") {
		return s.errorsUnwrap(args[0], pos)
	}
	spec, ok := s.errorSpec(fn, c, args, fr)
	if !ok || len(spec.refs) > 0 {
		return value{}, false
	}
	if spec.isNil() {
		return value{kind: vNil}, true
	}
	return s.newError(spec), true
}

// errorsUnwrap computes errors.Unwrap(err): what a wrap (fmt.Errorf's %w)
// wraps; nil for an errors.New error, a join (whose Unwrap gives a
// slice) and an error of the program's own without an Unwrap method. One
// with such a method is refused (the model does not call it here); ok is
// false for an err the model does not compute.
func (s *system) errorsUnwrap(err value, pos token.Pos) (value, bool) {
	unwrapOf := func(o *object) *object {
		if s.isErrorObj(o) {
			return o.wraps
		}
		if types.NewMethodSet(dynType(o)).Lookup(nil, "Unwrap") != nil {
			s.unsupported(pos, "errors.Unwrap of an error of type %s, which has a method Unwrap", dynType(o))
		}
		return nil
	}
	switch err.kind {
	case vNil:
		return value{kind: vNil}, true
	case vIface:
		o, ok := s.wrapped(err)
		if !ok || o == nil {
			return value{}, false
		}
		if w := unwrapOf(o); w != nil {
			return errIface(w), true
		}
		return value{kind: vNil}, true
	case vRef:
		var e model.Expr = model.C(0)
		var objs []*object
		for _, o := range err.objs {
			w := unwrapOf(o)
			if w == nil {
				continue
			}
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, err.e, model.C(s.idOf(o, pos))), model.C(s.idOf(w, pos))))
			if !slices.Contains(objs, w) {
				objs = append(objs, w)
			}
		}
		return value{kind: vRef, e: e, objs: objs, typ: errorType}, true
	}
	return value{}, false
}

// errorsIs computes errors.Is(err, target) when it is an identity test
// along the chain of wrapped errors: err is target, or wraps it (errwrap.go),
// and no error of the chains has an Unwrap or Is method of its own.
func (s *system) errorsIs(err, target value, pos token.Pos) value {
	check := func(dt types.Type) {
		if isObjPtr(dt) && s.x.isMadeError(ptrElem(dt)) {
			return
		}
		ms := types.NewMethodSet(dt)
		for _, m := range []string{"Unwrap", "Is"} {
			if ms.Lookup(nil, m) != nil {
				s.unsupported(pos, "errors.Is on an error of type %s, which has a method %s", dt, m)
			}
		}
	}
	var objs []*object
	switch err.kind {
	case vRef:
		objs = err.objs
	case vIface:
		check(err.typ)
		if o, ok := s.wrapped(err); ok && o != nil {
			objs = []*object{o}
		}
	}
	for _, o := range objs {
		for _, c := range errorTree(o) {
			check(dynType(c))
		}
	}
	eq := s.ifaceEqual(err, target, pos)
	if target.kind == vNil {
		return eq
	}
	for _, o := range objs {
		s.loopIdentity(target, errorTree(o)[1:], pos)
	}
	below := s.unwrapsTo(s.refExpr(err, pos), s.refExpr(target, pos), objs, pos)
	if below == nil {
		return eq
	}
	return intVal(model.Bin(model.OpOr, s.asInt(eq, pos), below))
}

// ifaceEqual compares two interface values as Go's == does.
func (s *system) ifaceEqual(x, y value, pos token.Pos) value {
	if ys, ok := refObjs(y); ok && x.kind != vNil {
		s.loopIdentity(x, ys, pos)
	} else if o, ok := s.wrapped(y); ok && o != nil && x.kind != vNil {
		s.loopIdentity(x, []*object{o}, pos)
	}
	s.refuseBoxCompare(x, y, pos)
	s.refuseSliceCompare(x, y, pos)
	s.refuseZeroSizeCompare(x, y, pos)
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
		if own := s.ownErrorIn(pl.ptr.obj); own != nil {
			return p.refuseAt(cur, ownErrorWhy(own, false), pos), true
		}
		if used(in) {
			fr.vals[in] = s.errorText(pl.ptr.obj)
		}
		return cur, true
	case vRef:
		if len(recv.objs) == 0 || slices.ContainsFunc(recv.objs, func(o *object) bool { return !s.isErrorObj(o) }) {
			return cur, false
		}
		// One case for each message (the joins of a slice's elements are
		// many errors of few messages), and one for each refusal.
		type msgCase struct {
			objs []*object
			why  string
			text model.Expr
		}
		var cases []*msgCase
		byKey := map[string]*msgCase{}
		for _, o := range recv.objs {
			c := &msgCase{}
			if own := s.ownErrorIn(o); own != nil {
				c.why = ownErrorWhy(own, false)
			} else {
				c.text = s.errorText(o).e
			}
			k := fmt.Sprintf("%s\x00%v", c.why, c.text)
			if old := byKey[k]; old != nil {
				old.objs = append(old.objs, o)
				continue
			}
			c.objs = []*object{o}
			byKey[k] = c
			cases = append(cases, c)
		}
		if len(cases) > maxCases {
			s.unsupported(pos, "a method call on an interface value that may hold more than %d values", maxCases)
		}
		nilDeref(model.Bin(model.OpEq, recv.e, model.C(0)))
		r := p.resultReg(fr, in, types.Typ[types.String])
		join := p.newLoc(pos)
		for _, c := range cases {
			g := p.emit(cur, model.GuardOp(s.anyOf(recv.e, c.objs, pos)), pos, Origin{})
			switch {
			case c.why != "":
				p.refuseAt(g, c.why, pos)
			case r < 0:
				p.emitTo(g, model.GuardOp(model.C(1)), join, pos, Origin{})
			default:
				p.emitTo(g, model.AssignOp(r, c.text), join, pos, Origin{})
			}
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

// errorPool makes the objects of a call of errors.New or fmt.Errorf in a
// loop of a goroutine that makes the error spec describes: each execution
// takes the next of maxPool (pointers.go's allocPool, makeError); one
// execution more leaves the domain of the pool's count, which the analysis
// reports as inconclusive, naming it.
func (s *system) errorPool(spec errSpec, pos token.Pos, proc int) []*object {
	var objs []*object
	for range maxPool {
		objs = append(objs, s.newKeyedError(spec, proc))
	}
	s.noteIface(types.NewPointer(objs[0].typ))
	return objs
}
