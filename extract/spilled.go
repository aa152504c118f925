package extract

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Spilled variables. go/ssa keeps a variable that a closure captures in a
// cell of its own (an Alloc), a parameter included: `func (p *pool) stop()
// { p.once.Do(func() { p.n++ }) }` stores p into a cell at the function's
// entry, and both the method and the closure load it from there. When that
// cell is written once, at the top of the function's entry block, and only
// loaded otherwise (by the function, and by the closures it is bound to,
// which never store to it), a load gives the value of that one store. A
// pointer so kept stays the pointer the lowering knows, rather than
// becoming one chosen at run time (a Once or a mutex "chosen at run time").

// A spilled variable of a function called in a loop of a goroutine (an
// errgroup's Go, whose closure captures its receiver) is allocated once
// per call, from a pool of objects (allocPool): the store and the loads
// reach it through a pointer chosen at run time. The store, lowered once
// for every iteration, writes one pointer known to the lowering into
// whichever object of the pool it is: the loads of any of them give that
// pointer, unless another store writes one of them with another.

// spillCells returns the objects of the spilled variables written once
// that ptr may point to: its object, or each of the pool it is chosen
// from; nil when it may point to another cell.
func (s *system) spillCells(ptr pointer) []*object {
	if len(ptr.path) != 0 {
		return nil
	}
	objs := []*object{ptr.obj}
	if ptr.ref != nil {
		objs = ptr.ref.objs
	}
	for _, o := range objs {
		if o == nil || o.alloc == nil || !s.x.writeOnce(o.alloc) || s.heap.hint.inMemory[o.alloc] {
			return nil
		}
	}
	return objs
}

// noteSpilled records the store of the pointer or function val, known to
// the lowering, into ptr when it is a spilled variable written once, and
// reports whether it is one.
func (s *system) noteSpilled(ptr pointer, val value, by int) bool {
	cells := s.spillCells(ptr)
	for _, o := range cells {
		if s.spilled == nil {
			s.spilled, s.spilledBy = map[*object]value{}, map[*object]int{}
		}
		s.spilledBy[o] = by
		if v, ok := s.spilled[o]; ok && !same(v, val) {
			if val.kind == vFunc {
				// Its loads were given the first one, and no variable
				// holds it.
				s.unsupported(s.curPos, "a spilled variable stored with two functions")
			}
			s.spilled[o] = opaque("a spilled variable stored with two pointers")
			continue
		}
		s.spilled[o] = val
	}
	return len(cells) > 0
}

// spilledAt returns the pointer a load of ptr by the process loader gives
// when it is a spilled variable written once with one pointer known to the
// lowering. A closure that holds values known only at run time to the
// process that stored it is refused to any other (a closure capturing the
// variable sent on a channel): those values are that process's registers.
func (s *system) spilledAt(ptr pointer, loader int) (value, bool) {
	objs := s.spillCells(ptr)
	var out value
	for i, o := range objs {
		v, ok := s.spilled[o]
		if !ok || v.kind != vPtr && v.kind != vFunc && !isHandle(v) || i > 0 && !same(v, out) {
			return value{}, false
		}
		if by, stored := s.spilledBy[o]; stored && by != loader && knownAtRunTime(v) {
			// Those values are the storing process's registers: from the
			// next round on the variable is a cell of memory, which holds
			// the function as an index of its table (funcvals.go).
			s.keepInMemory(o.alloc)
		}
		out = v
	}
	return out, len(objs) > 0
}

// keepInMemory makes the spilled variable a allocates a cell of memory
// from the next round on.
func (s *system) keepInMemory(a *ssa.Alloc) {
	if s.heap.inMemory == nil {
		s.heap.inMemory = map[*ssa.Alloc]bool{}
	}
	s.heap.inMemory[a] = true
	s.heapChange("a closure holding values known only at run time is loaded by another goroutine")
}

// spilledRunTime reports whether v points to spilled variables written
// once with a function or pointer that holds values known only at run
// time to the process that stored it (knownAtRunTime), and returns that
// value and one of the cells.
func (s *system) spilledRunTime(v value) (value, *object, bool) {
	var ptr pointer
	switch v.kind {
	case vPtr:
		ptr = v.ptr
	case vRef:
		ptr = s.deref(v, s.curPos).ptr
	default:
		return value{}, nil, false
	}
	cells := s.spillCells(ptr)
	if len(cells) == 0 {
		return value{}, nil, false
	}
	sv, ok := s.spilledAt(ptr, s.spilledBy[cells[0]])
	if !ok || !knownAtRunTime(sv) {
		return value{}, nil, false
	}
	return sv, cells[0], true
}

// knownAtRunTime reports whether v, or a value a closure in it captures,
// is known only at run time: a register of the process that holds it.
func knownAtRunTime(v value) bool {
	switch v.kind {
	case vInt:
		return !isConstExpr(v.e)
	case vRef, vFuncRef, vChanRef, vMapRef:
		return true
	case vPtr, vSlice:
		return v.ptr.dynamic()
	case vFunc:
		return slices.ContainsFunc(v.env, knownAtRunTime)
	case vAgg:
		for _, c := range v.agg {
			if knownAtRunTime(c) {
				return true
			}
		}
	}
	return false
}

// writeOnce reports whether the cell a allocates is written once, by its
// first referrer in the function's entry block, and otherwise only loaded,
// in its function or in the closures it is bound to.
func (x *extractor) writeOnce(a *ssa.Alloc) bool {
	if v, ok := x.onceCells[a]; ok {
		return v
	}
	ok := writeOnceCell(a)
	if x.onceCells == nil {
		x.onceCells = map[*ssa.Alloc]bool{}
	}
	x.onceCells[a] = ok
	return ok
}

func writeOnceCell(a *ssa.Alloc) bool {
	fn := a.Parent()
	if fn == nil || len(fn.Blocks) == 0 || a.Block() != fn.Blocks[0] {
		return false
	}
	var store *ssa.Store
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if store != nil || r.Addr != a || r.Val == ssa.Value(a) || r.Block() != fn.Blocks[0] {
				return false
			}
			store = r
		case *ssa.UnOp:
			if r.Op != token.MUL || r.X != ssa.Value(a) {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			cl, _ := r.Fn.(*ssa.Function)
			if cl == nil {
				return false
			}
			for i, b := range r.Bindings {
				if b == ssa.Value(a) && !loadedOnly(cl.FreeVars[i]) {
					return false
				}
			}
		default:
			return false
		}
	}
	if store == nil {
		return false
	}
	// The store comes before every other use in the entry block; uses in
	// later blocks follow it.
	for _, in := range fn.Blocks[0].Instrs {
		if in == ssa.Instruction(store) {
			return true
		}
		for _, r := range *a.Referrers() {
			if r == in {
				if _, isDebug := in.(*ssa.DebugRef); !isDebug {
					return false
				}
			}
		}
	}
	return false
}

// loadedOnly reports whether a closure's free variable, a captured cell, is
// only loaded, by the closure or by the closures it is bound to in turn.
func loadedOnly(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || r.X != ssa.Value(fv) {
				return false
			}
		case *ssa.MakeClosure:
			cl, _ := r.Fn.(*ssa.Function)
			if cl == nil {
				return false
			}
			for i, b := range r.Bindings {
				if b == ssa.Value(fv) && !loadedOnly(cl.FreeVars[i]) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// isHandle reports whether v is a value of the standard library the
// lowering knows by identity rather than as memory: a ticker or timer, a
// context or its cancel function, a context.AfterFunc's stop, a Cond.
func isHandle(v value) bool {
	switch v.kind {
	case vTicker, vCtx, vCancel, vStop, vCond:
		return true
	}
	return false
}
