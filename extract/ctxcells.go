package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Contexts goroutines store in shared memory.
//
// A field of type context.Context that a goroutine stores to (a pool that
// starts its purger, then makes the ticker's context and stores it for
// the ticker to load; a Close that sets the field to nil) is a variable
// holding an index, as a channel cell is (chanvals.go): 0 for nil, 1 for
// the context the set-up left there, if any, then the contexts goroutines
// store, in the order a round found them. A derived context is known
// across rounds by its call's position and rank (nextCtxKey); one the
// hint lists that this round has not derived yet is made ahead, and
// adopted by its call (deriveCtx). Background and TODO are one context.
//
// A load gives a vCtxRef: Done is the channel chosen at run time among the
// alternatives' (nil for Background's), Err one of theirs, and a method
// of a nil context panics. A cell's cancel functions are entries of the
// function table of context.CancelFunc (funcvals.go).

// rootCtxKey and todoCtxKey name Background and TODO in a cell's list:
// each is one context wherever it is made, and they differ.
const (
	rootCtxKey = "background"
	todoCtxKey = "todo"
)

// isRootKey reports whether key names Background or TODO.
func isRootKey(key string) bool { return key == rootCtxKey || key == todoCtxKey }

// sameCtx reports whether a and b are one context.
func sameCtx(a, b *ctxNode) bool {
	return a == b || isRootKey(ctxKeyOf(a)) && ctxKeyOf(a) == ctxKeyOf(b)
}

// nextCtxKey returns the key of the next context derived at pos.
func (s *system) nextCtxKey(pos token.Pos) string {
	if s.ctxRank == nil {
		s.ctxRank = map[token.Pos]int{}
	}
	k := s.ctxRank[pos]
	s.ctxRank[pos] = k + 1
	return fmt.Sprintf("%d#%d", pos, k)
}

// ctxNamed returns this round's context of key, derived at pos: the one
// made ahead for a load, or a new one, with its Done channel.
func (s *system) ctxNamed(key string, pos token.Pos) *ctxNode {
	if n, ok := s.ctxKeyed[key]; ok {
		return n
	}
	n := &ctxNode{pos: pos, expired: -1, key: key}
	n.ch = &channel{name: "ctx", anon: true, elem: types.NewStruct(nil, nil), pos: pos, closed: -1}
	s.chans = append(s.chans, n.ch)
	if s.ctxKeyed == nil {
		s.ctxKeyed = map[string]*ctxNode{}
	}
	s.ctxKeyed[key] = n
	return n
}

// ctxKeyOf returns the key of context n in a cell's list.
func ctxKeyOf(n *ctxNode) string {
	if n.parent == nil && n.ch == nil {
		if n.todo {
			return todoCtxKey
		}
		return rootCtxKey
	}
	return n.key
}

// isContextType reports whether t is context.Context.
func isContextType(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// isCtxCell reports whether the shared cell q of type t holds contexts of
// package context, or nil: every cell of type context.Context but one the
// set-up left another value in (a Context of the program's own, kept as
// any interface value is).
func (s *system) isCtxCell(q pointer, t types.Type) bool {
	if !isContextType(t) || q.obj.owner >= 0 || q.dynamic() {
		return false
	}
	v, ok := s.mem[q.key()]
	return !ok || v.kind == vCtx || v.kind == vNil
}

// sharedCtxAlts returns the contexts the cell q may hold, in the order of
// their indices from 1, and the cell's variable.
func (s *system) sharedCtxAlts(q pointer, pos token.Pos) (int, []value) {
	var alts []value
	init := int64(0)
	if v := s.mem[q.key()]; v.kind == vCtx {
		alts = append(alts, v)
		init = 1
	}
	for _, key := range s.heap.hint.ctxCells[q.key()] {
		if slices.ContainsFunc(alts, func(a value) bool { return ctxKeyOf(a.ctx) == key }) {
			continue
		}
		n := &ctxNode{expired: -1, key: key, todo: key == todoCtxKey}
		if !isRootKey(key) {
			n = s.ctxNamed(key, pos)
		}
		alts = append(alts, value{kind: vCtx, ctx: n})
	}
	return s.cellVar("ctx:"+q.key(), q, init, types.Typ[types.Int], pos), alts // an index, not a heap id
}

// ctxIndex returns the index of the context v among alts (0 for nil).
func (s *system) ctxIndex(alts []value, v value, pos token.Pos) model.Expr {
	index := func(n *ctxNode) int64 {
		for i, a := range alts {
			if sameCtx(a.ctx, n) {
				return int64(i + 1)
			}
		}
		return -1
	}
	if v.ctxVals != nil || slices.ContainsFunc(alts, func(a value) bool { return a.ctxVals != nil }) {
		// A cell or a join keeps which context it holds, not the values
		// context.WithValue gave it.
		s.unsupported(pos, "a context made by context.WithValue kept where goroutines store contexts, or joined with another at run time (one the set-up leaves in a field, and passed in calls and closures, is modelled)")
	}
	switch v.kind {
	case vNil:
		return model.C(0)
	case vCtx:
		return model.C(index(v.ctx))
	case vCtxRef:
		var e model.Expr = model.C(0)
		for i, a := range v.alts {
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, v.e, model.C(int64(i+1))), model.C(index(a.ctx))))
		}
		return e
	}
	s.unsupported(pos, "storing %s in a field of type context.Context that goroutines store contexts of package context in", describe(v))
	return nil
}

// storeSharedCtx lowers a goroutine's store of the context val (a context
// of package context, nil, or one chosen at run time) into the shared cell
// ptr; ok is false for a cell and value of other kinds.
func (p *proc) storeSharedCtx(ptr pointer, val value, t types.Type, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	if !isContextType(t) || ptr.obj.owner >= 0 {
		return cur, false
	}
	var ctxs []*ctxNode
	switch val.kind {
	case vCtx:
		if val.ctxVals != nil {
			s.ctxIndex(nil, val, pos) // refused: the cell keeps no values
		}
		ctxs = []*ctxNode{val.ctx}
	case vCtxRef:
		for _, a := range val.alts {
			ctxs = append(ctxs, a.ctx)
		}
	case vNil:
		if !s.isCtxCell(ptr, t) {
			return cur, false
		}
	default:
		if !s.isCtxCell(ptr, t) {
			return cur, false
		}
		s.unsupported(pos, "storing %s in a field of type context.Context that also holds contexts of package context", describe(val))
		return cur, true
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		s.wrotePtrCell(q)
		known := true
		for _, n := range ctxs {
			key := ctxKeyOf(n)
			if key == "" {
				s.unsupported(pos, "storing a context made where no key names it")
			}
			if s.heap.ctxCells == nil {
				s.heap.ctxCells = map[string][]string{}
			}
			if !slices.Contains(s.heap.ctxCells[q.key()], key) {
				s.heap.ctxCells[q.key()] = append(slices.Clip(s.heap.ctxCells[q.key()]), key)
			}
			if !slices.Contains(s.heap.hint.ctxCells[q.key()], key) && !(s.mem[q.key()].kind == vCtx && ctxKeyOf(s.mem[q.key()].ctx) == key) {
				known = false
				s.heapChange("a goroutine stores a context in memory")
			}
		}
		x, alts := s.sharedCtxAlts(q, pos)
		var e model.Expr = model.C(0) // a placeholder: the next round lists the context
		if known {
			e = s.ctxIndex(alts, val, pos)
		}
		return []model.Op{model.WriteOp(x, e)}
	}), true
}

// loadSharedCtx lowers a load of the shared cell ptr of type
// context.Context that goroutines store contexts in; ok is false for
// other cells.
func (p *proc) loadSharedCtx(fr *frame, in *ssa.UnOp, ptr pointer, t types.Type, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	if ptr.dynamic() && ptr.obj.owner < 0 && isContextType(t) {
		return p.loadSharedCtxAt(fr, in, ptr, t, pos, o, cur)
	}
	if !s.isCtxCell(ptr, t) || !s.ptrCellShared(ptr, pos) {
		return cur, false
	}
	x, alts := s.sharedCtxAlts(ptr, pos)
	r := p.indexReg(fr, in, int64(len(alts)))
	fr.vals[in] = value{kind: vCtxRef, e: model.R(r), alts: alts}
	return p.emit(cur, model.ReadOp(x, r), pos, o), true
}

// loadSharedCtxAt lowers a load through the pointer ptr, chosen at run
// time, of cells of type context.Context that goroutines store contexts in
// (an element of an array of contexts indexed at run time): each cell's
// index is translated into one over the contexts of them all. ok is false
// when a cell ptr may name is not such a cell.
func (p *proc) loadSharedCtxAt(fr *frame, in *ssa.UnOp, ptr pointer, t types.Type, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	cells, ok := s.cellsOf(ptr)
	if !ok || len(cells) == 0 {
		return cur, false
	}
	var all []value
	shared := false
	for _, q := range cells {
		if !s.isCtxCell(q, t) {
			return cur, false
		}
		if s.ptrCellShared(q, pos) {
			shared = true
		}
	}
	if !shared {
		return cur, false // each holds what the set-up left (scalarFromSetup)
	}
	for _, q := range cells {
		_, alts := s.sharedCtxAlts(q, pos)
		for _, a := range alts {
			if !slices.ContainsFunc(all, func(b value) bool { return b.ctx == a.ctx }) {
				all = append(all, a)
			}
		}
	}
	r := p.indexReg(fr, in, int64(len(all)))
	tmp := p.newReg(p.regName(fr, in)+".cell", types.Typ[types.Int])
	fr.vals[in] = value{kind: vCtxRef, e: model.R(r), alts: all}
	join := p.newLoc(pos)
	p.eachCase(cur, ptr, pos, func(q pointer, from int) {
		x, alts := s.sharedCtxAlts(q, pos)
		at := p.access(from, q, pos, o, func(q pointer) []model.Op { return []model.Op{model.ReadOp(x, tmp)} })
		e := s.ctxIndex(all, value{kind: vCtxRef, e: model.R(tmp), alts: alts}, pos)
		p.emitTo(at, model.AssignOp(r, e), join, pos, Origin{})
	})
	return join, true
}

// ctxRefMethod lowers a call of the method name of a context chosen at run
// time: a nil context panics; Done gives the channel chosen among the
// alternatives', Err the error of the one it is.
func (p *proc) ctxRefMethod(fr *frame, in *ssa.Call, recv value, name string, cur int) int {
	s := p.s
	pos := in.Pos()
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, recv.e, model.C(0))), pos, Origin{})
	p.panicAt(panicSite{loc: g, name: "invalid memory address or nil pointer dereference", pos: pos})
	switch name {
	case "Done":
		var chans []value
		var e model.Expr = model.C(0)
		for i, a := range recv.alts {
			if a.ctx.ch == nil {
				continue
			}
			k := slices.IndexFunc(chans, func(c value) bool { return c.ch == a.ctx.ch })
			if k < 0 {
				chans = append(chans, value{kind: vChan, ch: a.ctx.ch})
				k = len(chans) - 1
			}
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, recv.e, model.C(int64(i+1))), model.C(int64(k+1))))
		}
		fr.vals[in] = value{kind: vChanRef, e: e, alts: chans}
		return p.emit(cur, model.GuardOp(model.Bin(model.OpNe, recv.e, model.C(0))), pos, Origin{})
	case "Err":
		r := p.newReg(p.regName(fr, in), in.Type())
		join := p.newLoc(pos)
		var objs []*object
		for i, a := range recv.alts {
			at := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, recv.e, model.C(int64(i+1)))), pos, Origin{})
			v, next := p.ctxErrAt(fr, in, a.ctx, at)
			e := s.refExpr(v, pos)
			if v.kind == vRef {
				for _, o := range v.objs {
					if !slices.Contains(objs, o) {
						objs = append(objs, o)
					}
				}
			}
			p.emitTo(next, model.AssignOp(r, e), join, pos, Origin{})
		}
		fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: in.Type()}
		return join
	}
	s.unsupported(pos, "the method %s of a context chosen at run time (Done and Err are modelled)", name)
	return -1
}

// ctxCompare lowers x == y and x != y where one operand is a context
// chosen at run time and the other a context or nil; ok is false for
// other operands.
func (s *system) ctxCompare(x, y value, in *ssa.BinOp) (value, bool) {
	if x.kind != vCtxRef && y.kind != vCtxRef && (x.kind != vCtx || y.kind != vCtx && y.kind != vNil) && (y.kind != vCtx || x.kind != vNil) {
		return value{}, false
	}
	if y.kind == vCtxRef {
		x, y = y, x
	}
	if in.Op != token.EQL && in.Op != token.NEQ {
		s.unsupported(in.Pos(), "the operator %s on contexts", in.Op)
	}
	asRef := func(v value) (value, bool) {
		switch v.kind {
		case vCtxRef:
			return v, true
		case vCtx:
			return value{kind: vCtxRef, e: model.C(1), alts: []value{v}}, true
		case vNil:
			return value{kind: vCtxRef, e: model.C(0)}, true
		}
		return value{}, false
	}
	a, okA := asRef(x)
	b, okB := asRef(y)
	if !okA || !okB {
		s.unsupported(in.Pos(), "comparing a context chosen at run time with %s", describe(y))
	}
	// Both nil, or the same context (Background is one wherever it is
	// made, and so is TODO).
	eq := model.Expr(model.Bin(model.OpAnd, model.Bin(model.OpEq, a.e, model.C(0)), model.Bin(model.OpEq, b.e, model.C(0))))
	for i, p := range a.alts {
		for j, q := range b.alts {
			if sameCtx(p.ctx, q.ctx) {
				eq = model.Bin(model.OpOr, eq, model.Bin(model.OpAnd,
					model.Bin(model.OpEq, a.e, model.C(int64(i+1))), model.Bin(model.OpEq, b.e, model.C(int64(j+1)))))
			}
		}
	}
	if in.Op == token.NEQ {
		eq = model.Not(eq)
	}
	return intVal(eq), true
}

// ctxAlternatives returns, when every value of vals is a context of
// package context, one chosen at run time or nil, and one is not nil, the
// contexts they may be; ok is false otherwise.
func ctxAlternatives(vals []value) ([]value, bool) {
	var all []value
	add := func(a value) {
		if !slices.ContainsFunc(all, func(b value) bool { return b.ctx == a.ctx }) {
			all = append(all, a)
		}
	}
	for _, v := range vals {
		switch v.kind {
		case vNil:
		case vCtx:
			if v.ctxVals != nil {
				return nil, false // its values (ctxIndex)
			}
			add(v)
		case vCtxRef:
			for _, a := range v.alts {
				add(a)
			}
		default:
			return nil, false
		}
	}
	return all, len(all) > 0
}

// A cell of the goroutine's own of type context.Context (the result slot
// go/ssa gives a function with deferred calls, a local a closure
// captures) is a register holding which of the contexts stored there it
// holds, from 1, or 0 for nil. The list grows as stores are lowered; one
// that adds a context after a load of the cell was lowered (a loop's
// back edge) is refused, since that load's alternatives are fixed.

// storePrivateCtx lowers a store of a context into the goroutine's own
// cell ptr; ok is false for other cells and values.
func (p *proc) storePrivateCtx(ptr pointer, val value, t types.Type, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	if !isContextType(t) || ptr.obj.owner < 0 || ptr.dynamic() {
		return cur, false
	}
	k := ptr.key()
	switch val.kind {
	case vCtx, vCtxRef:
	case vNil:
		if p.privCtx[k] == nil {
			return cur, false
		}
	default:
		if p.privCtx[k] != nil {
			s.unsupported(pos, "storing %s in a variable of type context.Context that also holds contexts of package context", describe(val))
		}
		return cur, false
	}
	if p.privCtx == nil {
		p.privCtx, p.privCtxRead = map[string][]value{}, map[string]bool{}
	}
	more, _ := ctxAlternatives([]value{val})
	for _, a := range more {
		if slices.ContainsFunc(p.privCtx[k], func(b value) bool { return b.ctx == a.ctx }) {
			continue
		}
		if p.privCtxRead[k] && (p.at.fr == nil || p.at.b == nil || inLoop(p.at.fr, p.at.b)) {
			// Outside loops, a load lowered before this store runs
			// before it (pond's newPool derives its context from the one
			// its literal set): only a loop's may run after.
			s.unsupported(pos, "a variable of type context.Context set, after a load of it, to a context it did not hold before (a loop's back edge)")
		}
		p.privCtx[k] = append(p.privCtx[k], a)
	}
	e := s.ctxIndex(p.privCtx[k], val, pos)
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		r := p.privateReg(q)
		if p.limits == nil {
			p.limits = map[int][2]int64{}
		}
		p.limits[r] = [2]int64{0, int64(len(p.privCtx[k]))} // an index, not a heap id
		return []model.Op{model.AssignOp(r, e)}
	}), true
}

// loadPrivateCtx lowers a load of the goroutine's own cell ptr of type
// context.Context that holds contexts; ok is false for other cells.
func (p *proc) loadPrivateCtx(fr *frame, in *ssa.UnOp, ptr pointer, t types.Type, pos token.Pos, o Origin, cur int) (int, bool) {
	k := ptr.key()
	if !isContextType(t) || ptr.obj.owner < 0 || ptr.dynamic() || p.privCtx[k] == nil {
		return cur, false
	}
	p.privCtxRead[k] = true
	alts := p.privCtx[k]
	r := p.indexReg(fr, in, int64(len(alts)))
	fr.vals[in] = value{kind: vCtxRef, e: model.R(r), alts: alts}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.AssignOp(r, model.R(p.privateReg(q)))}
	}), true
}

// deriveFromRef lowers context.WithCancel, WithCancelCause, WithTimeout or
// WithDeadline of a goroutine (outside its loops) whose parent is nil (Go
// panics) or a context chosen at run time: a child for each context the parent may be,
// the child chosen by the parent's index, and its cancel function the
// child's, through the function table of its type; a nil parent panics,
// as Go's does. ok is false for other calls.
func (p *proc) deriveFromRef(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "context" || fn.Signature.Recv() != nil {
		return cur, false
	}
	deadline := false
	switch fn.Name() {
	case "WithCancel", "WithCancelCause":
	case "WithTimeout", "WithDeadline":
		deadline = true
	default:
		return cur, false
	}
	pos := in.Pos()
	if inLoop(fr, in.Block()) {
		s.unsupported(pos, "a context.%s in a loop of a goroutine (each iteration would make a new one)", fn.Name())
	}
	parent := args[0]
	if parent.kind == vNil {
		p.panicAt(panicSite{loc: cur, name: "cannot create context from nil parent", pos: pos})
		return -1, true
	}
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, parent.e, model.C(0))), pos, Origin{})
	p.panicAt(panicSite{loc: g, name: "cannot create context from nil parent", pos: pos})
	cancelT := fn.Signature.Results().At(1).Type()
	var children []value
	var childID, cancelID model.Expr = model.C(0), model.C(0)
	call := s.nextCtxKey(pos) // one per call, so that the children's keys do not depend on how many there are
	for i, a := range parent.alts {
		if strings.Contains(ctxKeyOf(a.ctx), call+"/") {
			// A child of this very call: the call runs once (it is in no
			// loop), so its parent is never one of its own children,
			// which a cell it stores them in lists nonetheless.
			continue
		}
		n := s.deriveCtxKeyed(a, deadline, call+"/"+ctxKeyOf(a.ctx), pos)
		if deadline && !n.ch.initClosed && s.deadlinePassed(fn.Name(), args[1], pos) {
			s.unsupported(pos, "a context.%s whose deadline has passed, derived from a context chosen at run time", fn.Name())
		}
		children = append(children, value{kind: vCtx, ctx: n})
		is := model.Bin(model.OpEq, parent.e, model.C(int64(i+1)))
		childID = model.Bin(model.OpAdd, childID, model.Bin(model.OpMul, is, model.C(int64(len(children)))))
		id := s.funcID(cancelT, value{kind: vCancel, ctx: n}, pos)
		cancelID = model.Bin(model.OpAdd, cancelID, model.Bin(model.OpMul, is, id))
	}
	fr.vals[in] = value{kind: vTuple, tup: []value{
		{kind: vCtxRef, e: childID, alts: children},
		s.funcFromID(cancelT, cancelID),
	}}
	cur = p.emit(cur, model.GuardOp(model.Bin(model.OpNe, parent.e, model.C(0))), pos, Origin{})
	var nodes []*ctxNode
	for _, c := range children {
		nodes = append(nodes, c.ctx)
	}
	return p.madeStep(nodes, childID, pos, cur), true
}

// madeStep emits, from cur, the locked step in which a goroutine makes one
// of the contexts ns (the one pick, from 1, chooses; ns[0] when pick is
// nil) when Go takes a mutex to make it: a deadline's timer is armed, or a
// cancellable parent registers the child. A deadline cannot pass before
// it (addDeadlineProcs). It returns the location after the step.
func (p *proc) madeStep(ns []*ctxNode, pick model.Expr, pos token.Pos, cur int) int {
	s := p.s
	var body []model.Op
	for i, n := range ns {
		if !n.deadline && (n.parent == nil || n.parent.ch == nil) {
			continue
		}
		if n.made == 0 {
			n.made = 1 + s.newChanVar(s.uniqueVarName(fmt.Sprintf("context@%d.made", s.x.fset.Position(n.pos).Line)), types.Typ[types.Bool], 0, pos)
		}
		var this model.Expr = model.C(1)
		if pick != nil {
			this = model.Bin(model.OpOr, model.V(n.made-1), model.Bin(model.OpEq, pick, model.C(int64(i+1))))
		}
		body = append(body, model.WriteOp(n.made-1, this))
	}
	if len(body) == 0 {
		return cur
	}
	return p.emit(cur, model.LockedOp(body...), pos, Origin{})
}

// uniqueVarName returns name, or name#2, name#3, ... when the program has
// a variable of that name already.
func (s *system) uniqueVarName(name string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(s.prog.Vars, func(v model.Var) bool { return v.Name == n })
	}
	out := name
	for k := 2; taken(out); k++ {
		out = fmt.Sprintf("%s#%d", name, k)
	}
	return out
}
