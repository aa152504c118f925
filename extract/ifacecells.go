package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Interface values in memory.
//
// An interface value that is stored in memory, merged at a join or compared
// is a heap id, like a pointer (pointers.go): 0 is nil; a value whose
// dynamic type is a pointer *T is the id of the object it points to (every
// object of type T whose address was converted to an interface value is a
// candidate); a value of any other dynamic type is the id of a box, an
// object of the system that stands for one (dynamic type, value) pair and
// has no cells. Boxes are made when a conversion is lowered, one per
// constant payload: two interface values are equal exactly when their ids
// are, as Go compares them (by dynamic type and value, pointers by
// identity). A payload known only at run time (an integer in a register)
// is the box of whichever value it holds (anyint.go), a float too
// (anyfloat.go); a slice has a box per window (anyslice.go); a struct, an
// array, a function or a channel has a box of its own, an object holding a
// copy (valueboxes.go); a map has a box per map (anymap.go).
//
// An interface cell is a single model variable, so a plain store is one
// write: the tearing of Go's two-word interface values under a race is not
// modelled, but the race itself is reported on the cell. A type assertion
// or type switch on a run-time value is a case split over its candidates,
// and so is a method call, which inlines the method of each dynamic type.
// atomic.Value is an atomic cell holding such an id, with Go's panics:
// storing nil, and storing a value whose dynamic type differs from the
// one stored first.

// ifaceOf returns the interface type of the values a cell of type t holds:
// t itself for an interface type, any for atomic.Value; nil otherwise.
func ifaceOf(t types.Type) *types.Interface {
	if isNamed(t, "sync/atomic", "Value") {
		return types.NewInterfaceType(nil, nil).Complete()
	}
	it, _ := t.Underlying().(*types.Interface)
	return it
}

// boxKey identifies the box of a payload.
func boxKey(t types.Type, v int64) string {
	return fmt.Sprintf("%s=%d", types.TypeString(t, nil), v)
}

// newBox returns a box of dynamic type t holding v, named name.
func newBox(t types.Type, v int64, name string) *object {
	return &object{id: -1, name: name, raw: name, named: true, typ: t, owner: -1, box: true, boxVal: v}
}

// dynType returns the dynamic type of the interface values with o's id.
func dynType(o *object) types.Type {
	if o.box || o.byValue {
		return o.typ
	}
	return types.NewPointer(o.typ)
}

// isObjPtr reports whether t is a pointer type *T (not unsafe.Pointer).
func isObjPtr(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// boxable reports whether an interface value of known dynamic type can be
// held as a heap id.
func boxable(v value) bool {
	pl := v.env[0]
	if isObjPtr(v.typ) {
		return pl.kind == vNil || isRefLike(pl)
	}
	if isScalarPayload(v.typ) {
		// A constant, or an integer or float known at run time (anyint.go).
		return pl.kind == vInt
	}
	if isSliceType(v.typ) {
		return pl.kind == vNil || pl.kind == vSlice // a window (anyslice.go)
	}
	if isMap(v.typ) {
		return pl.kind == vNil || pl.kind == vMap || pl.kind == vMapRef // anymap.go
	}
	return v.box != nil // a struct, array, function or channel (valueboxes.go)
}

// flowsTo reports whether an interface value with o's id may be held by an
// interface of type it.
func (s *system) flowsTo(o *object, it *types.Interface) bool {
	dt := dynType(o)
	if !o.box && !o.byValue && !slices.ContainsFunc(s.heap.ifaces, func(u types.Type) bool { return types.Identical(u, dt) }) {
		return false
	}
	return types.Implements(dt, it)
}

// boxID returns the heap id of the box of payload v of dynamic type t.
func (s *system) boxID(t types.Type, v int64) int64 {
	k := boxKey(t, v)
	o := s.heap.boxes[k]
	if o == nil {
		o = newBox(t, v, s.boxName(t, v))
		s.heap.boxes[k] = o
		s.heapChange(whyNewBox)
	}
	if id, ok := s.heap.ids[o]; ok {
		return int64(id)
	}
	s.heap.heap = append(s.heap.heap, o)
	s.heap.ids[o] = len(s.heap.heap)
	return int64(len(s.heap.heap))
}

// boxName names a box the way Go would print the conversion: any(1),
// any("two"), any((*T)(nil)).
func (s *system) boxName(t types.Type, v int64) string {
	ts := types.TypeString(t, types.RelativeTo(s.x.pkg))
	switch {
	case isObjPtr(t):
		return fmt.Sprintf("any((%s)(nil))", ts)
	case isString(t) && v == strAny:
		return fmt.Sprintf("any(%s(?))", ts)
	case isString(t):
		str, _ := s.stringOf(constVal(v))
		return fmt.Sprintf("any(%q)", str)
	case isBool(t):
		return fmt.Sprintf("any(%v)", v != 0)
	case floatBits(t) != 0:
		return floatBoxName(t, ts, v)
	case isSliceType(t):
		return s.sliceBoxName(t, ts, v)
	case isMap(t):
		return s.mapBoxName(ts, v)
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.Int {
		return fmt.Sprintf("any(%d)", v)
	}
	return fmt.Sprintf("any(%s(%d))", ts, v)
}

// noteIface records that values of the pointer type t are converted to
// interface values.
func (s *system) noteIface(t types.Type) {
	if !slices.ContainsFunc(s.heap.ifaces, func(u types.Type) bool { return types.Identical(u, t) }) {
		s.heap.ifaces = append(s.heap.ifaces, t)
		s.heapChange("a new pointer type is converted to an interface")
	}
}

// ifaceID returns the heap id of an interface value of known dynamic type.
func (s *system) ifaceID(v value, pos token.Pos) model.Expr {
	pl := v.env[0]
	switch {
	case v.box != nil:
		return model.C(s.valueBoxID(v.box, pos))
	case isObjPtr(v.typ):
		if pl.kind == vNil {
			return model.C(s.boxID(v.typ, 0))
		}
		s.noteIface(v.typ)
		return s.refExpr(pl, pos)
	case isSliceType(v.typ) && pl.kind == vSlice && pl.ptr.ref != nil && len(pl.ptr.path) == 0:
		return s.sliceBoxesExpr(v.typ, pl, pos)
	case isSliceType(v.typ):
		return model.C(s.boxID(v.typ, s.sliceBoxVal(v.typ, pl, pos)))
	case isMap(v.typ):
		return s.mapBoxExpr(v.typ, pl, pos)
	case isScalarPayload(v.typ):
		if c, ok := pl.constant(); ok {
			return model.C(s.boxID(v.typ, c))
		}
		if pl.kind == vInt {
			return s.runtimeBoxExpr(v.typ, pl.e, pos)
		}
		s.unsupported(pos, "an interface value holding a %s that fencecheck does not compute, stored in memory, merged or compared", v.typ)
	}
	s.unsupported(pos, "an interface value holding a %s stored in memory, merged or compared (integers, booleans, strings, floats, pointers, structs, arrays, functions and channels are boxed)", v.typ)
	return nil
}

// ifaceFromID returns the interface value with a known heap id.
func (s *system) ifaceFromID(id int64) value {
	if id == 0 {
		return value{kind: vNil}
	}
	if id < 0 || int(id) > len(s.heap.heap) {
		s.fail(token.NoPos, "internal error: heap id %d of %d", id, len(s.heap.heap))
	}
	return s.ifaceOfObj(s.heap.heap[id-1])
}

// ifaceOfObj returns the interface value with o's id.
func (s *system) ifaceOfObj(o *object) value {
	switch {
	case o.byValue:
		// Its payload is in its cells: read where it is asserted.
		return value{kind: vRef, e: model.C(int64(s.heap.ids[o])), objs: []*object{o}, typ: types.NewInterfaceType(nil, nil).Complete()}
	case o.box && isObjPtr(o.typ):
		return value{kind: vIface, typ: o.typ, env: []value{{kind: vNil}}}
	case o.box && isSliceType(o.typ):
		return value{kind: vIface, typ: o.typ, env: []value{s.sliceOfBox(o)}}
	case isMapBox(o):
		return value{kind: vIface, typ: o.typ, env: []value{mapOfBox(o)}}
	case o.box:
		return value{kind: vIface, typ: o.typ, env: []value{constVal(o.boxVal)}}
	}
	return value{kind: vIface, typ: types.NewPointer(o.typ), env: []value{{kind: vPtr, ptr: o.target()}}}
}

// payloadExpr is the value an assertion to o's dynamic type yields: the
// boxed constant, or the pointer's heap id.
func (s *system) payloadExpr(o *object, pos token.Pos) model.Expr {
	if o.box {
		return model.C(o.boxVal)
	}
	return model.C(s.idOf(o, pos))
}

// anyOf is the condition that heap id e is one of objs (false when none).
func (s *system) anyOf(e model.Expr, objs []*object, pos token.Pos) model.Expr {
	var c model.Expr = model.C(0)
	for i, o := range objs {
		eq := model.Bin(model.OpEq, e, model.C(s.idOf(o, pos)))
		if i == 0 {
			c = eq
		} else {
			c = model.Bin(model.OpOr, c, eq)
		}
	}
	return c
}

// asserts reports whether an assertion to type at holds for the dynamic
// type dt.
func asserts(dt, at types.Type) bool {
	if it, ok := at.Underlying().(*types.Interface); ok {
		return types.Implements(dt, it)
	}
	return types.Identical(dt, at)
}

// typeAssertRef lowers a type assertion on an interface value known only
// at run time: a case split over the candidates of its dynamic type.
func (p *proc) typeAssertRef(fr *frame, in *ssa.TypeAssert, x value, cur int) int {
	s := p.s
	pos := in.Pos()
	at := in.AssertedType
	var match []*object
	for _, o := range x.objs {
		if asserts(dynType(o), at) {
			match = append(match, o)
		}
	}
	if len(match) > maxCases {
		s.unsupported(pos, "a type assertion on an interface value that may hold more than %d values", maxCases)
	}
	ok := s.anyOf(x.e, match, pos)
	_, toIface := at.Underlying().(*types.Interface)
	r := p.newReg(p.regName(fr, in), at)
	var res value
	switch {
	case toIface:
		res = value{kind: vRef, e: model.R(r), objs: match, typ: at}
	case isObjPtr(at):
		var objs []*object
		for _, o := range match {
			if !o.box && !o.byValue {
				objs = append(objs, o)
			}
		}
		res = value{kind: vRef, e: model.R(r), objs: objs, typ: at}
	case isScalarPayload(at):
		res = intVal(model.R(r))
	case isMap(at):
		res = value{kind: vMapRef, e: model.R(r), typ: at} // the box holds its identity
	default:
		s.unsupported(pos, "a type assertion to %s on an interface value known only at run time", at)
	}
	join := p.newLoc(pos)
	if toIface {
		g := p.emit(cur, model.GuardOp(ok), pos, Origin{})
		p.emitTo(g, model.AssignOp(r, x.e), join, pos, Origin{})
	} else {
		for _, o := range match {
			g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(s.idOf(o, pos)))), pos, Origin{})
			if o.byValue {
				// An integer in a box of its own (valueboxes.go).
				p.emitTo(g, model.ReadOp(s.varFor(pointer{obj: o}), r), join, pos, Origin{})
				continue
			}
			p.emitTo(g, model.AssignOp(r, s.payloadExpr(o, pos)), join, pos, Origin{})
		}
	}
	fail := p.emit(cur, model.GuardOp(negate(ok)), pos, Origin{})
	if in.CommaOk {
		p.emitTo(fail, model.AssignOp(r, model.C(0)), join, pos, Origin{})
		fr.vals[in] = value{kind: vTuple, tup: []value{res, intVal(ok)}}
	} else {
		name := fmt.Sprintf("interface conversion: interface is not %s", types.TypeString(at, types.RelativeTo(s.x.pkg)))
		p.panicAt(panicSite{loc: fail, name: name, pos: pos})
		fr.vals[in] = res
	}
	return join
}

// invokeRef lowers a method call on an interface value known only at run
// time: one inlined call per candidate, a nil-dereference panic for nil.
func (p *proc) invokeRef(fr *frame, in *ssa.Call, recv value, cur int) int {
	s := p.s
	c := in.Common()
	pos := in.Pos()
	if len(recv.objs) > maxCases {
		s.unsupported(pos, "a method call on an interface value that may hold more than %d values", maxCases)
	}
	var rest []value
	for _, a := range c.Args {
		rest = append(rest, s.get(fr, a))
	}
	var targets []callTarget
	for _, o := range recv.objs {
		if o.box && isSliceType(o.typ) && !s.liveSliceBox(o) {
			continue // no conversion makes it (anyslice.go)
		}
		dt := dynType(o)
		if s.isErrorObj(o) {
			s.unsupported(pos, "a call of the method %s of an error made by errors.New or fmt.Errorf", c.Method.Name())
		}
		fn := s.x.ssapkg.Prog.LookupMethod(dt, c.Method.Pkg(), c.Method.Name())
		if fn == nil {
			s.unsupported(pos, "a call of the interface method %s on a %s", c.Method.Name(), dt)
		}
		var rv value
		switch {
		case o.byValue:
			// Read from the box once its case is taken (lowerTargets).
		case o.box && isObjPtr(o.typ):
			rv = value{kind: vNil}
		case o.box && isSliceType(o.typ):
			rv = s.sliceOfBox(o)
		case isMapBox(o):
			rv = mapOfBox(o)
		case o.box:
			rv = constVal(o.boxVal)
		default:
			rv = value{kind: vPtr, ptr: o.target()}
		}
		t := callTarget{
			cond: model.Bin(model.OpEq, recv.e, model.C(s.idOf(o, pos))),
			fn:   fn,
			args: append([]value{rv}, rest...),
		}
		if o.byValue {
			t.box = o
		}
		targets = append(targets, t)
	}
	return p.splitCall(fr, in, targets, model.Bin(model.OpEq, recv.e, model.C(0)), cur)
}

// callTarget is one alternative of a call chosen at run time: the call of
// fn with env and args when cond holds.
type callTarget struct {
	cond model.Expr
	fn   *ssa.Function
	env  []value
	args []value
	// box is set when the receiver, args[0], is the payload of a value
	// box, read once the condition holds (valueboxes.go).
	box *object
	// std is, for a function of the standard library's that a table
	// holds (a context's cancel function, a context.AfterFunc's stop),
	// that value; fn is then nil.
	std value
}

// splitCall lowers a call whose callee is chosen at run time: each target
// is inlined under its condition, and the returns of all join as one call's
// do; isNil (when not nil) is the condition of a nil callee, which panics.
func (p *proc) splitCall(fr *frame, in *ssa.Call, targets []callTarget, isNil model.Expr, cur int) int {
	rets := p.lowerTargets(fr, in, targets, isNil, cur, -1)
	if len(targets) == 0 {
		return -1
	}
	return p.joinReturns(fr, in, targets[0].fn, rets, in.Pos())
}

// lowerTargets lowers the calls of splitCall, each under its condition,
// and returns their return sites.
//
// join, when not -1, is where the caller goes on once a target returns (a
// call lowered late, whose returns meet there): a panic that a call
// lowered after it recovers in the target returns there (recover.go).
func (p *proc) lowerTargets(fr *frame, in *ssa.Call, targets []callTarget, isNil model.Expr, cur, join int) []retSite {
	s := p.s
	pos := in.Pos()
	if isNil != nil {
		g := p.emit(cur, model.GuardOp(isNil), pos, Origin{})
		p.panicAt(panicSite{loc: g, name: "invalid memory address or nil pointer dereference", pos: pos})
	}
	var rets []retSite
	for _, t := range targets {
		g := p.emit(cur, model.GuardOp(t.cond), pos, Origin{})
		switch t.std.kind {
		case vCancel:
			rets = append(rets, retSite{loc: p.cancelProc(t.std.ctx, pos, g)})
			continue
		case vStop:
			s.unsupported(pos, "calling the stop function of a context.AfterFunc that a goroutine stored in memory")
			continue
		}
		if t.box != nil {
			t.args = slices.Clone(t.args)
			t.args[0], g = p.boxReceiver(t.box, pos, g)
		}
		if f, args := s.unbind(value{kind: vFunc, fn: t.fn, env: t.env}, t.args, pos); f.fn != t.fn {
			t.fn, t.env, t.args = f.fn, nil, args
		}
		if !s.x.local(t.fn) {
			s.unsupported(pos, "a call of %s chosen at run time (only functions of the package are modelled)", t.fn)
		}
		if why := fr.recursionRefused(t.fn); why != "" {
			s.unsupported(pos, "%s", why)
		}
		child := s.bindCall(t.fn, t.env, t.args, fr)
		child.site, child.onceVar = s.callBlock(in), s.onceCalls[in]
		child.once = child.onceVar > 0
		child.noteJoin(in, join)
		p.lowerCallee(child, pos, g)
		rets = append(rets, child.returns...)
	}
	return rets
}

// valueSetup executes a method of atomic.Value in the setup.
func (s *system) valueSetup(fn *ssa.Function, args []value, pos token.Pos) value {
	p := s.staticPtr(args[0], pos)
	old, ok := s.mem[p.key()]
	if !ok {
		old = value{kind: vNil}
	}
	if fn.Name() == "Load" {
		return old
	}
	nw := args[len(args)-1]
	if nw.kind == vNil {
		s.fail(pos, "the setup of system %s panics: sync/atomic: store of nil value into Value", s.name)
	}
	if nw.kind != vIface {
		s.unsupported(pos, "storing %s in an atomic.Value", describe(nw))
	}
	if old.kind == vIface && !types.Identical(old.typ, nw.typ) {
		s.fail(pos, "the setup of system %s panics: sync/atomic: store of inconsistently typed value into Value", s.name)
	}
	switch fn.Name() {
	case "Store":
		s.mem[p.key()] = nw
		return value{}
	case "Swap":
		s.mem[p.key()] = nw
		return old
	case "CompareAndSwap":
		if floatBits(nw.typ) != 0 || !types.Comparable(nw.typ) {
			s.unsupported(pos, "a compare-and-swap of an atomic.Value holding a %s (Go compares floats by value, and panics on types it cannot compare: slices, maps, functions; fencecheck compares boxes)", nw.typ)
		}
		if args[1].kind == vIface && !types.Identical(args[1].typ, nw.typ) {
			s.fail(pos, "the setup of system %s panics: sync/atomic: compare and swap of inconsistently typed values", s.name)
		}
		eq := same(old, args[1]) || old.kind == vNil && args[1].kind == vNil
		if !eq && (!isRefLike(old) || !isRefLike(args[1])) {
			s.unsupported(pos, "a compare-and-swap the setup cannot decide")
		}
		if !eq && isRefLike(old) && isRefLike(args[1]) {
			a, b := s.refExpr(old, pos), s.refExpr(args[1], pos)
			eq = a == b
		}
		if eq {
			s.mem[p.key()] = nw
			return constVal(1)
		}
		return constVal(0)
	}
	s.unsupported(pos, "%s of atomic.Value", fn.Name())
	return value{}
}

// valueOp lowers a method of atomic.Value: an atomic access to the cell
// holding the heap id of its interface value, with Go's panics.
func (p *proc) valueOp(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) int {
	s := p.s
	o, pos := p.callOrigin(fr, in, fn)
	if p.nilDeref(args[0], pos, cur) {
		return -1
	}
	ptr := p.pointerArg(args[0], pos)
	if ptr.obj.owner >= 0 && !ptr.dynamic() {
		s.idOf(ptr.obj, pos)
	}
	t, _ := ptr.target()
	if o.Type == nil {
		o.Type = t
	}
	anyT := types.NewInterfaceType(nil, nil).Complete()
	if fn.Name() == "Load" {
		r := p.resultReg(fr, in, anyT)
		if r >= 0 {
			fr.vals[in] = s.refVal(model.R(r), anyT)
		}
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AtomicReadOp(s.varFor(q), r)}
		})
	}
	panicAt := func(loc int, msg string) {
		p.panicAt(panicSite{loc: loc, name: "sync/atomic: " + msg, pos: pos})
	}
	nw := args[len(args)-1]
	if nw.kind == vNil {
		panicAt(cur, "store of nil value into Value")
		return -1
	}
	dt, ok := dynTypeOf(nw)
	if !ok {
		s.unsupported(pos, "storing in an atomic.Value an interface value whose dynamic type is known only at run time")
	}
	e := s.refExpr(nw, pos)
	// compat holds of a cell that is nil or holds a value of type dt: the
	// type of an atomic.Value never changes once set.
	compat := func(x int) model.Expr {
		c := model.Bin(model.OpEq, model.V(x), model.C(0))
		for _, ob := range s.candidates(anyT) {
			if types.Identical(dynType(ob), dt) {
				c = model.Bin(model.OpOr, c, model.Bin(model.OpEq, model.V(x), model.C(s.idOf(ob, pos))))
			}
		}
		return c
	}
	var ops func(x int) []model.Op
	switch fn.Name() {
	case "Store", "Swap":
		r := -1
		if fn.Name() == "Swap" {
			r = p.resultReg(fr, in, anyT)
			if r >= 0 {
				fr.vals[in] = s.refVal(model.R(r), anyT)
			}
		}
		ops = func(x int) []model.Op {
			return []model.Op{model.LockedOp(model.GuardOp(compat(x)), model.ReadOp(x, r), model.WriteOp(x, e))}
		}
	case "CompareAndSwap":
		old := args[1]
		if floatBits(dt) != 0 || !types.Comparable(dt) {
			s.unsupported(pos, "a compare-and-swap of an atomic.Value holding a %s (Go compares floats by value, and panics on types it cannot compare: slices, maps, functions; fencecheck compares boxes)", dt)
		}
		if old.kind != vNil {
			odt, ok := dynTypeOf(old)
			if !ok {
				s.unsupported(pos, "a compare-and-swap of an atomic.Value with an old value whose dynamic type is known only at run time")
			}
			if !types.Identical(odt, dt) {
				panicAt(cur, "compare and swap of inconsistently typed values")
				return -1
			}
		}
		s.refuseLoopError(old, pos)
		oe := s.refExpr(old, pos)
		r := p.resultReg(fr, in, types.Typ[types.Bool])
		if r >= 0 {
			fr.vals[in] = intVal(model.R(r))
		}
		ops = func(x int) []model.Op {
			succ := model.LockedOp(model.GuardOp(compat(x)), model.Op{Kind: model.Read, Var: x, Reg: -1, Expr: oe}, model.WriteOp(x, e))
			fail := model.LockedOp(model.GuardOp(model.Bin(model.OpAnd, compat(x), model.Bin(model.OpNe, model.V(x), oe))))
			if r >= 0 {
				succ.Body = append(succ.Body, model.AssignOp(r, model.C(1)))
				fail.Body = append(fail.Body, model.AssignOp(r, model.C(0)))
			}
			return []model.Op{succ, fail}
		}
	default:
		s.unsupported(pos, "%s of atomic.Value", fn.Name())
	}
	bad := p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		x := s.varFor(q)
		return []model.Op{model.LockedOp(model.GuardOp(negate(compat(x))))}
	})
	panicAt(bad, "store of inconsistently typed value into Value")
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		s.wrotePtrCell(q)
		return ops(s.varFor(q))
	})
}

// dynTypeOf returns the dynamic type of a non-nil interface value when all
// its candidates share it.
func dynTypeOf(v value) (types.Type, bool) {
	switch v.kind {
	case vIface:
		return v.typ, true
	case vRef:
		var dt types.Type
		for _, o := range v.objs {
			if dt != nil && !types.Identical(dt, dynType(o)) {
				return nil, false
			}
			dt = dynType(o)
		}
		return dt, dt != nil
	}
	return nil, false
}
