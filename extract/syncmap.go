package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// sync.Map.
//
// A sync.Map is a map of any to any whose operations Go's memory model
// orders key by key: a write is synchronized before a read that observes
// it, and nothing orders operations on different keys. The model gives
// each sync.Map a map of its own (maps.go: at most 16 keys, the keys and
// values as a map[any]any holds them) whose slot of a key is read and
// written in one locked step per operation, as the slots of every shared
// map are, but with no access to the map itself: a Store of one key and a
// Load of another neither race nor synchronize, and data published through
// a Store and read after the Load that sees it is ordered. Load, Store and
// Delete are lowered from Go source of the model's own on that map (a
// lookup, an assignment, a delete); LoadOrStore, LoadAndDelete, Swap,
// CompareAndSwap and CompareAndDelete are one locked step on the key's
// slot, in the branch its state selects (syncMapOp); Range visits the
// slots one by one, in every order, each read when it is visited (not a
// snapshot), calling f until it returns false; Clear deletes the slots
// one by one.

// syncMapSrc is the source of the methods, each a function that takes the
// map first.
const syncMapSrc = `package sync

func newMap() map[any]any { return make(map[any]any) }

func Load(m map[any]any, key any) (value any, ok bool) {
	value, ok = m[key]
	return value, ok
}

func Store(m map[any]any, key, value any) { m[key] = value }

func Delete(m map[any]any, key any) { delete(m, key) }
`

// syncMapShims is the package of syncMapSrc, built once.
type syncMapShims struct {
	pkg  *ssa.Package
	make *ssa.MakeMap // the make of every sync.Map's map
	err  error
}

// syncMapShim returns, for fn a method of *sync.Map, the function of the
// model's source that stands for it, which takes the map first; nil for
// any other function. A method the model does not lower is an error.
func (x *extractor) syncMapShim(fn *ssa.Function) (*ssa.Function, error) {
	recv := fn.Signature.Recv()
	if recv == nil || !isNamed(deref(recv.Type()), "sync", "Map") {
		return nil, nil
	}
	sh, err := x.syncMapPkg()
	if err != nil {
		return nil, err
	}
	f := sh.pkg.Func(fn.Name())
	if f == nil || fn.Name() == "newMap" {
		if isSyncMapOp(fn) {
			return nil, nil // syncMapOp
		}
		return nil, fmt.Errorf("(*sync.Map).%s (not modelled)", fn.Name())
	}
	return f, nil
}

// syncMapPkg builds the package of syncMapSrc, once.
func (x *extractor) syncMapPkg() (*syncMapShims, error) {
	if x.syncMaps != nil {
		return x.syncMaps, x.syncMaps.err
	}
	x.syncMaps = &syncMapShims{}
	sh := x.syncMaps
	pkg, err := x.modelSource("sync.Map", "sync·map", syncMapSrc, nil)
	if err != nil {
		sh.err = fmt.Errorf("the model of sync.Map: %w", err)
		return sh, sh.err
	}
	sh.pkg = pkg
	for _, b := range sh.pkg.Func("newMap").Blocks {
		for _, in := range b.Instrs {
			if mk, ok := in.(*ssa.MakeMap); ok {
				sh.make = mk
			}
		}
	}
	return sh, nil
}

// syncMapOf returns the map of the sync.Map recv points to, made at its
// first operation.
func (s *system) syncMapOf(recv value, pos token.Pos) value {
	if recv.kind == vNil {
		s.goPanic(pos, "a method call on a nil *sync.Map")
	}
	if recv.kind != vPtr || recv.ptr.dynamic() {
		s.unsupported(pos, "a sync.Map reached through %s (a sync.Map the code names is modelled)", describe(recv))
	}
	if recv.ptr.obj.owner >= 0 {
		s.unsupported(pos, "a sync.Map a goroutine makes (the sync.Maps of the set-up are modelled)")
	}
	key := recv.ptr.key()
	if m := s.maps.syncs[key]; m != nil {
		return value{kind: vMap, mp: m}
	}
	m := s.newMapObj(s.x.syncMaps.make, -1, recv.ptr.name())
	m.sync, m.syncCell = true, recv.ptr.obj
	if s.maps.syncs == nil {
		s.maps.syncs = map[string]*mapObj{}
	}
	s.maps.syncs[key] = m
	return value{kind: vMap, mp: m}
}

// syncMapCall replaces, in the call of f with args, a method of *sync.Map
// by the function that stands for it, on the sync.Map's map.
func (s *system) syncMapCall(f value, args []value, pos token.Pos) (value, []value) {
	sh, err := s.x.syncMapShim(f.fn)
	if err != nil {
		s.unsupported(pos, "%v", err)
	}
	if sh == nil {
		return f, args
	}
	args = append([]value{s.syncMapOf(args[0], pos)}, args[1:]...)
	return value{kind: vFunc, fn: sh}, args
}

// isSyncMapOp reports whether fn is a method of *sync.Map that syncMapOp
// lowers.
func isSyncMapOp(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil || !isNamed(deref(recv.Type()), "sync", "Map") {
		return false
	}
	switch fn.Name() {
	case "LoadOrStore", "LoadAndDelete", "Swap", "CompareAndSwap", "CompareAndDelete", "Range", "Clear":
		return true
	}
	return false
}

// syncMapOp lowers the call in of fn, a method of *sync.Map that
// isSyncMapOp accepts, with args (the receiver first), from cur. Each
// method but Range and Clear is, for the slot of its key, one locked step
// of the branch the slot's state selects: present or absent (and for the
// compares, holding the value compared or not); a key outside the slots
// is absent, or inserted by a miss (mapMiss).
func (p *proc) syncMapOp(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) int {
	s := p.s
	o, pos := p.callOrigin(fr, in, fn)
	m := s.syncMapOf(args[0], pos).mp
	s.nameMap(m)
	name := fn.Name()
	s.refuseUncomparableOld(name, args, pos)
	switch name {
	case "Clear":
		m.enumerated = true
		for _, sl := range m.slots {
			st := p.slotStep(m)
			p.removeSlot(m, sl, st, pos)
			cur = st.emit(pos, o, cur)
		}
		return cur
	case "Range":
		return p.syncMapRange(fr, in, m, args[1], pos, o, cur)
	}
	key := args[1]
	es := s.keyExprs(m, key, pos)
	create := name == "LoadOrStore" || name == "Swap"
	cases := p.keyCases(m, es, create, pos)
	flag := p.newReg(s.mapLabel(m)+"."+name, types.Typ[types.Bool])
	var er *elemRead
	if name != "CompareAndSwap" && name != "CompareAndDelete" {
		er = p.newElemRead(m, append(slices.Clone(cases), slotCase{}), s.mapLabel(m)+".value", pos)
	}
	isPresent := func(sl *mapSlot, want int64) model.Op {
		return model.ReadEqOp(s.varFor(pointer{obj: sl.present}), model.C(want))
	}
	join := p.newLoc(pos)
	branch := func(at int, st *mapStep, ok int64) {
		st.assign(flag, model.C(ok))
		if at = st.emit(pos, o, at); at >= 0 {
			p.emitTo(at, model.NopOp(), join, pos, Origin{})
		}
	}
	step := func(guard model.Op) *mapStep {
		st := p.slotStep(m)
		st.ops = append(st.ops, guard)
		return st
	}
	var newVal value
	switch name {
	case "LoadOrStore", "Swap":
		newVal = args[2]
	case "CompareAndSwap":
		newVal = args[3]
	}
	for _, c := range cases {
		at := cur
		if c.cond != nil {
			at = p.emit(cur, model.GuardOp(c.cond), pos, Origin{})
		}
		if c.sl == nil {
			if create {
				if at = p.mapMiss(m, es, pos, at); at >= 0 {
					p.emitTo(at, model.NopOp(), join, pos, Origin{})
				}
				continue
			}
			st := p.slotStep(m)
			if er != nil {
				p.readElem(er, nil, st, pos)
			}
			st.assign(flag, model.C(0))
			p.emitTo(st.emit(pos, o, at), model.NopOp(), join, pos, Origin{})
			continue
		}
		sl := c.sl
		switch name {
		case "LoadOrStore", "LoadAndDelete", "Swap":
			st := step(isPresent(sl, 1))
			p.readElem(er, sl, st, pos)
			switch name {
			case "LoadAndDelete":
				p.removeSlot(m, sl, st, pos)
			case "Swap":
				p.writeElem(st, m, sl, newVal, pos)
			}
			branch(at, st, 1)
			st = step(isPresent(sl, 0))
			p.readElem(er, nil, st, pos)
			if name != "LoadAndDelete" {
				st.write(pointer{obj: sl.present}, model.C(1))
				p.writeElem(st, m, sl, newVal, pos)
			}
			branch(at, st, 0)
		case "CompareAndSwap", "CompareAndDelete":
			old := s.refExpr(args[2], pos)
			x := s.varFor(pointer{obj: sl.val})
			st := step(isPresent(sl, 1))
			st.ops = append(st.ops, model.ReadEqOp(x, old))
			if name == "CompareAndSwap" {
				p.writeElem(st, m, sl, newVal, pos)
			} else {
				p.removeSlot(m, sl, st, pos)
			}
			branch(at, st, 1)
			st = step(isPresent(sl, 1))
			st.ops = append(st.ops, model.GuardOp(model.Bin(model.OpNe, model.V(x), old)), model.ReadOp(x, -1))
			branch(at, st, 0)
			branch(at, step(isPresent(sl, 0)), 0)
		}
	}
	ok := intVal(model.R(flag))
	var res value
	if er != nil {
		res = er.value(s)
		if name == "LoadOrStore" {
			// The value loaded, or the one stored.
			loaded := s.refExpr(res, pos)
			e := model.Bin(model.OpAdd, model.Bin(model.OpMul, model.R(flag), loaded),
				model.Bin(model.OpMul, model.Bin(model.OpSub, model.C(1), model.R(flag)), s.refExpr(newVal, pos)))
			res = s.refVal(e, m.elem)
		}
	}
	if er != nil {
		fr.vals[in] = value{kind: vTuple, tup: []value{res, ok}}
	} else {
		fr.vals[in] = ok
	}
	return join
}

// syncMapRange lowers m.Range(f): the slots are visited one by one, in
// every order, each read in a locked step of its own when it is visited
// (not a snapshot: a key stored while the range runs may be seen or
// not); f is called with each key present, until it returns false.
func (p *proc) syncMapRange(fr *frame, in *ssa.Call, m *mapObj, f value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	if f.kind != vFunc || !s.x.local(f.fn) {
		s.unsupported(pos, "(*sync.Map).Range of %s (a function or closure of the package is modelled)", describeCallee(f))
	}
	m.enumerated = true
	visited := make([]int, len(m.slots))
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	loop := p.newLoc(pos)
	for i := range m.slots {
		visited[i] = p.newReg("visited."+m.slots[i].present.name, types.Typ[types.Bool])
		p.limits[visited[i]] = [2]int64{0, 1}
		cur = p.emit(cur, model.AssignOp(visited[i], model.C(0)), pos, Origin{})
	}
	p.emitTo(cur, model.NopOp(), loop, pos, Origin{})
	done := p.newLoc(pos)
	var all model.Expr
	for _, r := range visited {
		all = andAlso(all, model.Bin(model.OpEq, model.R(r), model.C(1)))
	}
	if all == nil {
		all = model.C(1)
	}
	p.emitTo(loop, model.GuardOp(all), done, pos, Origin{})
	var read []slotCase
	for _, sl := range m.slots {
		read = append(read, slotCase{sl: sl})
	}
	er := p.newElemRead(m, append(read, slotCase{}), s.mapLabel(m)+".value", pos)
	okReg := p.newReg(s.mapLabel(m)+".present", types.Typ[types.Bool])
	for i, sl := range m.slots {
		at := p.emit(loop, model.GuardOp(model.Bin(model.OpEq, model.R(visited[i]), model.C(0))), pos, Origin{})
		st := p.slotStep(m)
		st.read(pointer{obj: sl.present}, okReg)
		p.readElem(er, sl, st, pos)
		st.assign(visited[i], model.C(1))
		at = st.emit(pos, o, at)
		p.emitTo(at, model.GuardOp(model.Bin(model.OpEq, model.R(okReg), model.C(0))), loop, pos, Origin{})
		at = p.emit(at, model.GuardOp(model.Bin(model.OpNe, model.R(okReg), model.C(0))), pos, Origin{})
		child := s.bindCall(f.fn, f.env, []value{s.keyValue(m, sl.key), er.value(s)}, fr)
		child.site = in.Block()
		p.lowerBody(child, f.fn.Blocks[0], 0, -1, at)
		for _, r := range child.returns {
			more := s.asInt(r.vals[0], pos)
			p.emitTo(r.loc, model.GuardOp(model.Bin(model.OpNe, more, model.C(0))), loop, pos, Origin{})
			p.emitTo(r.loc, model.GuardOp(model.Bin(model.OpEq, more, model.C(0))), done, pos, Origin{})
		}
	}
	return done
}

// setupSyncMapOp executes, in the set-up, a method of *sync.Map that
// isSyncMapOp accepts, with args (the receiver first).
func (s *system) setupSyncMapOp(fn *ssa.Function, args []value, pos token.Pos, spawns []spawn) value {
	m := s.syncMapOf(args[0], pos).mp
	name := fn.Name()
	s.refuseUncomparableOld(name, args, pos)
	write := func(sl *mapSlot, v value) {
		s.setupMapWrite(m, pos, spawns)
		s.mem[pointer{obj: sl.present}.key()] = constVal(1)
		s.setupStore(pointer{obj: sl.val}, v, nil, pos)
	}
	remove := func(sl *mapSlot) {
		s.setupMapWrite(m, pos, spawns)
		s.setupRemove(sl)
	}
	switch name {
	case "Clear":
		for _, sl := range m.slots {
			if s.setupPresent(sl) {
				remove(sl)
			}
		}
		return value{}
	case "Range":
		for _, sl := range m.slots {
			if s.setupPresent(sl) {
				s.unsupported(pos, "a Range over the sync.Map %s in the set-up while it holds keys (range over it in a goroutine or after the last go statement)", s.mapLabel(m))
			}
		}
		return value{}
	}
	create := name == "LoadOrStore" || name == "Swap"
	sl := s.slotOf(m, s.setupKey(m, args[1], pos), create, pos)
	present := sl != nil && s.setupPresent(sl)
	old := value{kind: vNil}
	if present {
		old = s.setupLoad(pointer{obj: sl.val}, m.elem)
	}
	pair := func(v value, ok bool) value {
		return value{kind: vTuple, tup: []value{v, constVal(b2i(ok))}}
	}
	switch name {
	case "LoadOrStore":
		if present {
			return pair(old, true)
		}
		write(sl, args[2])
		return pair(args[2], false)
	case "Swap":
		write(sl, args[2])
		return pair(old, present)
	case "LoadAndDelete":
		if present {
			remove(sl)
		}
		return pair(old, present)
	}
	// CompareAndSwap, CompareAndDelete
	if !present || !same(old, args[2]) {
		return constVal(0)
	}
	if name == "CompareAndSwap" {
		write(sl, args[3])
	} else {
		remove(sl)
	}
	return constVal(1)
}

// refuseUncomparableOld refuses a CompareAndSwap or CompareAndDelete of a
// sync.Map whose old value (args[2]) may hold a type Go cannot compare (a
// map, a slice, a function): Go panics there ("the old value must be of a
// comparable type"), and the model compares boxes.
func (s *system) refuseUncomparableOld(name string, args []value, pos token.Pos) {
	if name != "CompareAndSwap" && name != "CompareAndDelete" || len(args) < 3 {
		return
	}
	old := args[2]
	s.refuseLoopError(old, pos)
	var ts []types.Type
	switch old.kind {
	case vIface:
		ts = append(ts, old.typ)
	case vRef:
		for _, o := range old.objs {
			if o.box || o.byValue {
				ts = append(ts, o.typ)
			}
		}
	}
	for _, t := range ts {
		if !types.Comparable(t) {
			s.unsupported(pos, "a %s of a sync.Map whose old value may hold a %s, which Go cannot compare (it panics)", name, t)
		}
	}
}
