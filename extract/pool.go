package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// sync.Pool.
//
// A Pool keeps up to poolSlots objects, each slot a variable holding the
// heap id of an interface value (0 when empty), that goroutines reach only
// through Get and Put, each a locked step (the Go memory model orders a
// Put(x) before the Get that returns x, and New's return before the Get
// that returns its value). Put(x) takes an empty slot or drops x (the pool
// may drop any object, at any collection); Put(nil) does nothing. Get
// takes the object of a full slot, or ignores them all and returns what
// the Pool's New returns (inlined), or nil when New is nil: Go's Get may
// choose to ignore the pool. The set-up may Put objects, which the slots
// start with, and Get from an empty pool.

// poolSlots is the number of objects a sync.Pool keeps.
const poolSlots = 2

// syncPool is one sync.Pool of the system.
type syncPool struct {
	name  string
	pos   token.Pos
	init  []value // what the set-up put, in order
	slots []int   // the slots' variables, made on first use by a process
}

// isPoolMethod reports whether fn is a method of *sync.Pool, and which.
func isPoolMethod(fn *ssa.Function) (string, bool) {
	recv := fn.Signature.Recv()
	if recv == nil || !isNamed(deref(recv.Type()), "sync", "Pool") {
		return "", false
	}
	return fn.Name(), true
}

// poolField is the index of field name of sync.Pool, t.
func poolField(t types.Type, name string) int {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return i
		}
	}
	return -1
}

// poolAt returns the Pool that v points to, made on first use.
func (s *system) poolAt(v value, pos token.Pos) (*syncPool, pointer) {
	if v.kind != vPtr || v.ptr.dynamic() {
		s.unsupported(pos, "a sync.Pool reached through %s (only a Pool the set-up fixes is modelled)", describe(v))
	}
	ptr := v.ptr
	if ptr.obj.owner >= 0 {
		s.unsupported(pos, "a sync.Pool private to one goroutine")
	}
	if s.pools == nil {
		s.pools = map[string]*syncPool{}
	}
	pl := s.pools[ptr.key()]
	if pl == nil {
		s.display(ptr.obj)
		pl = &syncPool{name: ptr.name(), pos: pos}
		s.pools[ptr.key()] = pl
	}
	return pl, ptr
}

// poolNew returns the Pool's New, as the set-up left it: a function value
// or nil.
func (s *system) poolNew(ptr pointer, pos token.Pos) value {
	t, _ := ptr.target()
	f := poolField(t, "New")
	v, ok := s.mem[ptr.with(step{field: f}).key()]
	if !ok || v.kind == vNil {
		return value{kind: vNil}
	}
	if v.kind != vFunc || !s.x.local(v.fn) {
		s.unsupported(pos, "a sync.Pool whose New is %s (a function of the package the set-up sets is modelled)", describeCallee(v))
	}
	return v
}

// poolSlotVars returns the slots' variables, made the first time.
func (s *system) poolSlotVars(pl *syncPool) []int {
	if pl.slots == nil {
		anyT := types.NewInterfaceType(nil, nil).Complete()
		for i := range poolSlots {
			var init int64
			if i < len(pl.init) {
				init = s.refExpr(pl.init[i], pl.pos).(model.Const).Value
			}
			pl.slots = append(pl.slots, s.newChanVar(fmt.Sprintf("%s.pooled[%d]", pl.name, i), anyT, init, pl.pos))
		}
	}
	return pl.slots
}

// poolCall lowers Get and Put of a sync.Pool by a process; ok is false
// for other calls.
func (p *proc) poolCall(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	name, ok := isPoolMethod(fn)
	if !ok {
		return 0, false
	}
	s := p.s
	o, pos := p.callOrigin(fr, in, fn)
	if p.nilDeref(args[0], pos, cur) {
		return -1, true
	}
	at := s.deref(args[0], pos)
	if at.kind != vPtr || !at.ptr.dynamic() {
		pl, ptr := s.poolAt(at, pos)
		return p.poolOp(fr, in, name, pl, ptr, args, o, pos, cur), true
	}
	// A Pool that the pointer picks at run time (a field of a worker a
	// goroutine took from a queue: w.pool.workerCache.Put(w)): the call on
	// each.
	join := p.newLoc(pos)
	var anyT types.Type
	var rets []int
	if name == "Get" {
		anyT = types.NewInterfaceType(nil, nil).Complete()
		rets = []int{p.newReg(p.regName(fr, in), anyT)}
		p.holds(rets[0], fr, in)
	}
	p.eachCase(cur, at.ptr, pos, func(q pointer, from int) {
		pl, ptr := s.poolAt(value{kind: vPtr, ptr: q}, pos)
		end := p.poolOp(fr, in, name, pl, ptr, args, o, pos, from)
		if end < 0 {
			return
		}
		if len(rets) > 0 {
			end = p.emit(end, model.AssignOp(rets[0], s.refExpr(fr.vals[in], pos)), pos, Origin{})
		}
		p.emitTo(end, model.NopOp(), join, pos, Origin{})
	})
	if len(rets) > 0 {
		fr.vals[in] = s.refVal(model.R(rets[0]), anyT)
	}
	return join, true
}

// poolOp lowers the method name of the Pool pl at ptr, from cur.
func (p *proc) poolOp(fr *frame, in *ssa.Call, name string, pl *syncPool, ptr pointer, args []value, o Origin, pos token.Pos, cur int) int {
	s := p.s
	anyT := types.NewInterfaceType(nil, nil).Complete()
	slots := s.poolSlotVars(pl)
	join := p.newLoc(pos)
	switch name {
	case "Put":
		x := args[1]
		if x.kind == vNil {
			return cur
		}
		e := s.refExpr(x, pos)
		for _, v := range slots {
			p.emitTo(cur, model.LockedOp(model.ReadEqOp(v, model.C(0)), model.WriteOp(v, e)), join, pos, o)
		}
		p.emitTo(cur, model.NopOp(), join, pos, o) // dropped
		return join
	case "Get":
		r := p.newReg(p.regName(fr, in), anyT)
		p.holds(r, fr, in)
		for _, v := range slots {
			p.emitTo(cur, model.LockedOp(model.GuardOp(model.Bin(model.OpNe, model.V(v), model.C(0))),
				model.ReadOp(v, r), model.WriteOp(v, model.C(0))), join, pos, o)
		}
		t, _ := ptr.target()
		newPtr := ptr.with(step{field: poolField(t, "New")})
		if s.ptrCellShared(newPtr, pos) {
			// New is set after the spawns (a constructor that starts a
			// goroutine first, as ants' NewPool does): read as Go's Get
			// reads it, and called through its function table.
			newT, _ := newPtr.target()
			f, at := p.loadFuncCell(newPtr, newT, pl.name+".New", pos, o, cur)
			if f.kind != vFuncRef || f.ftab == nil {
				s.unsupported(pos, "a sync.Pool whose New is %s", describeCallee(f))
			}
			none := p.emit(at, model.GuardOp(model.Bin(model.OpEq, f.e, model.C(0))), pos, o)
			p.emitTo(none, model.AssignOp(r, model.C(0)), join, pos, o)
			g := p.emit(at, model.GuardOp(model.Bin(model.OpNe, f.e, model.C(0))), pos, o)
			next := p.deferFuncCallOf(fr, in, f, nil, false, g)
			p.emitTo(next, model.AssignOp(r, s.refExpr(fr.vals[in], pos)), join, pos, o)
			fr.vals[in] = s.refVal(model.R(r), anyT)
			return join
		}
		newFn := s.poolNew(ptr, pos)
		if newFn.kind == vNil {
			p.emitTo(cur, model.AssignOp(r, model.C(0)), join, pos, o)
		} else {
			if fr.onStack(newFn.fn) {
				s.unsupported(pos, "recursion (%s calls itself)", newFn.fn.Name())
			}
			child := s.bindCall(newFn.fn, newFn.env, nil, fr)
			child.site = in.Block()
			start := p.emit(cur, model.NopOp(), pos, o)
			p.lowerBody(child, newFn.fn.Blocks[0], 0, -1, start)
			for _, ret := range child.returns {
				nameNew(ret.vals[0], pl.name)
				p.emitTo(ret.loc, model.AssignOp(r, s.refExpr(ret.vals[0], pos)), join, pos, o)
			}
		}
		fr.vals[in] = s.refVal(model.R(r), anyT)
		return join
	}
	s.unsupported(pos, "(*sync.Pool).%s", name)
	return -1
}

// nameNew names an anonymous object that a Pool's New returns after the
// Pool (pool.New()).
func nameNew(v value, pool string) {
	if v.kind == vIface && len(v.env) > 0 {
		v = v.env[0]
	}
	if v.kind == vPtr && len(v.ptr.path) == 0 && v.ptr.obj.anon && !v.ptr.obj.named {
		v.ptr.obj.name, v.ptr.obj.anon = pool+".New()", false
	}
}

// setupPoolCall executes Get and Put of a sync.Pool in the set-up; ok is
// false for other calls.
func (s *system) setupPoolCall(fr *frame, fn *ssa.Function, args []value, pos token.Pos, spawns *[]spawn) (value, bool) {
	name, ok := isPoolMethod(fn)
	if !ok {
		return value{}, false
	}
	pl, ptr := s.poolAt(args[0], pos)
	switch name {
	case "Put":
		if args[1].kind != vNil && len(pl.init) < poolSlots {
			pl.init = append(pl.init, args[1])
		}
		return value{}, true
	case "Get":
		if len(pl.init) > 0 {
			s.unsupported(pos, "a Get of the set-up from a sync.Pool it put objects in (which one it returns, if any, is the run time's choice)")
		}
		newFn := s.poolNew(ptr, pos)
		if newFn.kind == vNil {
			return value{kind: vNil}, true
		}
		if fr.onStack(newFn.fn) {
			s.unsupported(pos, "recursion (%s calls itself)", newFn.fn.Name())
		}
		res, _ := s.exec(s.bindCall(newFn.fn, newFn.env, nil, fr), false, spawns)
		return res, true
	}
	s.unsupported(pos, "(*sync.Pool).%s", name)
	return value{}, false
}
