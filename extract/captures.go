package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Variables that goroutines started by processes capture.
//
// go/ssa keeps a variable that a closure captures in a cell of its own (an
// Alloc), and the closure gets the cell's address. Since Go 1.22 each
// iteration of a loop has its own copy of the loop's variables: a range
// loop allocates the cell in its body, and a three-clause for loop
// allocates one before the loop (outer) and a fresh one at each iteration's
// post statement (next), copying the old value into it before the post
// statement updates it, with a phi in the loop's head choosing the current
// one.
//
// A cell that nothing stores into once a go statement has captured it
// holds, for the goroutine, the value it had at the go statement, which
// happens before the goroutine starts: the goroutine gets a copy of it, as
// a value passed at run time, and the cell stays private to its parent
// (frozenCapture).
//
// The cells of a three-clause loop's variable are one cell for the parent
// when their only captures are such copies (loopFamily): the parent uses
// the current one, or fills the next one from it and then uses only that.
//
// A channel variable that the goroutine stores once, before any use, and
// that closures only read (results := make(chan int)), holds that channel
// for its whole life (fixedChanCell): its loads, in the parent and in the
// goroutines it starts, are that channel.

// A cellWeb is the cells a captured address may name (the allocations of
// one variable, and the phis of a loop's head that choose among them), with
// the stores into them and the closures that capture them.
type cellWeb struct {
	allocs []*ssa.Alloc
	phis   []*ssa.Phi
	stores []*ssa.Store
	binds  []binding
}

// A binding is the capture of a cell by a closure: its k-th free variable.
type binding struct {
	mc *ssa.MakeClosure
	k  int
}

// webOf returns the web of v; ok is false when v is not an allocation or
// a phi of allocations, or one of them is used otherwise than loaded,
// stored into directly, merged by a phi of the web, or captured by a
// closure that only loads it.
func webOf(v ssa.Value) (w cellWeb, ok bool) {
	seen := map[ssa.Value]bool{}
	queue := []ssa.Value{v}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if seen[m] {
			continue
		}
		seen[m] = true
		switch m := m.(type) {
		case *ssa.Alloc:
			w.allocs = append(w.allocs, m)
		case *ssa.Phi:
			w.phis = append(w.phis, m)
			queue = append(queue, m.Edges...)
		default:
			return cellWeb{}, false
		}
		for _, r := range *m.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL || r.X != m {
					return cellWeb{}, false
				}
			case *ssa.Store:
				// A store through a phi would need to know which cell
				// it names.
				if _, isAlloc := m.(*ssa.Alloc); !isAlloc || r.Addr != m || r.Val == m {
					return cellWeb{}, false
				}
				w.stores = append(w.stores, r)
			case *ssa.Phi:
				queue = append(queue, r)
			case *ssa.MakeClosure:
				for k, b := range r.Bindings {
					if b != m {
						continue
					}
					if k >= len(r.Fn.(*ssa.Function).FreeVars) || !onlyLoaded(r.Fn.(*ssa.Function).FreeVars[k]) {
						return cellWeb{}, false
					}
					w.binds = append(w.binds, binding{r, k})
				}
			default:
				return cellWeb{}, false
			}
		}
	}
	return w, true
}

// onlyLoaded reports whether the free variable fv, a captured cell, is
// only loaded.
func onlyLoaded(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || r.X != fv {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// frozenCapture reports whether the k-th captured variable of the closure
// that the go statement g starts is a cell of an integer, boolean or
// string that nothing stores into after g (no store into the same cell is
// reachable from g without first allocating a fresh one), so that the
// goroutine may be given a copy of its value.
func frozenCapture(g *ssa.Go, k int) bool {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok || k >= len(mc.Bindings) {
		return false
	}
	if classify(deref(mc.Bindings[k].Type())) != leafInt {
		return false
	}
	w, ok := webOf(mc.Bindings[k])
	if !ok {
		return false
	}
	for _, a := range w.allocs {
		if storeAfter(g, a, w.stores) {
			return false
		}
	}
	return true
}

// frozenCaptures returns, for the go statement g, which of the values its
// closure captures are frozen (frozenCapture); nil when it starts no
// closure.
func frozenCaptures(g *ssa.Go) []bool {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	out := make([]bool, len(mc.Bindings))
	for k := range out {
		out[k] = frozenCapture(g, k)
	}
	return out
}

// storeAfter reports whether one of stores, into the cell a, may run after
// g without a running again in between (which would make a fresh cell).
func storeAfter(g *ssa.Go, a *ssa.Alloc, stores []*ssa.Store) bool {
	into := map[ssa.Instruction]bool{}
	for _, st := range stores {
		if st.Addr == a {
			into[st] = true
		}
	}
	// scan reports whether instrs reach a store into a before a itself,
	// and whether they go on to the block's successors.
	scan := func(instrs []ssa.Instruction) (found, goOn bool) {
		for _, in := range instrs {
			if in == ssa.Instruction(a) {
				return false, false
			}
			if into[in] {
				return true, false
			}
		}
		return false, true
	}
	b := g.Block()
	idx := -1
	for i, in := range b.Instrs {
		if in == ssa.Instruction(g) {
			idx = i
		}
	}
	found, goOn := scan(b.Instrs[idx+1:])
	if found {
		return true
	}
	if !goOn {
		return false
	}
	return searchSuccs(b, func(x *ssa.BasicBlock) (found, goOn bool) { return scan(x.Instrs) })
}

// loopFamily returns, for phi, the head's phi of the variable of a
// three-clause for loop kept in cells (see the comment at the top of this
// file), the cell allocated before the loop (outer) and the one its post
// statement allocates (next), when the parent may keep them as one cell:
// the cells are only loaded, stored into directly, and captured by
// closures that go statements start and that get a copy (frozenCapture).
func loopFamily(phi *ssa.Phi) (outer, next *ssa.Alloc, ok bool) {
	if len(phi.Edges) != 2 || classify(deref(phi.Type())) != leafInt {
		return nil, nil, false
	}
	scc := cycleOf(phi.Block())
	for k, e := range phi.Edges {
		a, isAlloc := e.(*ssa.Alloc)
		if !isAlloc {
			return nil, nil, false
		}
		if scc[phi.Block().Preds[k]] {
			next = a
		} else {
			outer = a
		}
	}
	if outer == nil || next == nil || !scc[next.Block()] || scc[outer.Block()] {
		return nil, nil, false
	}
	// next is filled from the phi's cell right after its allocation;
	// after that the loop uses only next.
	nb := next.Block()
	ni := -1
	for i, in := range nb.Instrs {
		if in == ssa.Instruction(next) {
			ni = i
		}
	}
	if ni+1 >= len(nb.Instrs) {
		return nil, nil, false
	}
	copied, isStore := nb.Instrs[ni+1].(*ssa.Store)
	if !isStore || copied.Addr != next {
		return nil, nil, false
	}
	if ld, isLoad := copied.Val.(*ssa.UnOp); !isLoad || ld.Op != token.MUL || ld.X != phi {
		return nil, nil, false
	}
	for _, r := range *phi.Referrers() {
		rb := r.Block()
		if rb == nil {
			continue
		}
		if rb == nb && indexOf(r) > ni || rb != nb && nb.Dominates(rb) && r != ssa.Instruction(phi) {
			return nil, nil, false
		}
	}
	w, ok := webOf(phi)
	if !ok || len(w.allocs) != 2 || len(w.phis) != 1 {
		return nil, nil, false
	}
	for _, bd := range w.binds {
		for _, r := range *bd.mc.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Go:
				if r.Call.Value != bd.mc || !frozenCapture(r, bd.k) {
					return nil, nil, false
				}
				for _, a := range r.Call.Args {
					if a == bd.mc {
						return nil, nil, false
					}
				}
			default:
				return nil, nil, false
			}
		}
	}
	return outer, next, true
}

// indexOf returns the index of in in its block.
func indexOf(in ssa.Instruction) int {
	for i, x := range in.Block().Instrs {
		if x == in {
			return i
		}
	}
	return -1
}

// cellAlias returns, for v, the phi or the next cell of a loop variable
// that the parent keeps as one cell (loopFamily), the cell it stands for:
// the one allocated before the loop. It returns nil for other values.
func cellAlias(v ssa.Value) *ssa.Alloc {
	switch v := v.(type) {
	case *ssa.Phi:
		if outer, _, ok := loopFamily(v); ok {
			return outer
		}
	case *ssa.Alloc:
		for _, r := range *v.Referrers() {
			if phi, isPhi := r.(*ssa.Phi); isPhi {
				if _, next, ok := loopFamily(phi); ok && next == v {
					outer, _, _ := loopFamily(phi)
					return outer
				}
			}
		}
	}
	return nil
}

// fixedChanCell reports whether a, a goroutine's variable of channel
// type, holds one channel for its whole life: it is stored into once,
// before every other use, and otherwise only loaded, by its function and
// by the closures that capture it.
func fixedChanCell(a *ssa.Alloc) bool {
	if _, isChan := deref(a.Type()).Underlying().(*types.Chan); !isChan {
		return false
	}
	w, ok := webOf(a)
	if !ok || len(w.phis) != 0 || len(w.stores) != 1 {
		return false
	}
	st := w.stores[0]
	before := func(in ssa.Instruction) bool {
		if in.Block() == st.Block() {
			return indexOf(st) < indexOf(in)
		}
		return st.Block().Dominates(in.Block())
	}
	for _, r := range *a.Referrers() {
		if _, isDebug := r.(*ssa.DebugRef); isDebug || r == ssa.Instruction(st) {
			continue
		}
		if !before(r) {
			return false
		}
	}
	return true
}

// loopCells returns, for v, a phi or cell of a loop variable that the
// parent keeps as one cell (loopFamily), the phi; nil for other values.
func loopCells(v ssa.Value) *ssa.Phi {
	switch v := v.(type) {
	case *ssa.Phi:
		if _, _, ok := loopFamily(v); ok {
			return v
		}
	case *ssa.Alloc:
		for _, r := range *v.Referrers() {
			if phi, isPhi := r.(*ssa.Phi); isPhi {
				if _, _, ok := loopFamily(phi); ok {
					return phi
				}
			}
		}
	}
	return nil
}

// loopRegister reports whether the parent may use the one cell of the loop
// variable of phi (loopFamily) as a register: no value computed from a load
// of its cells is used after a store into them. Every such use must lie in
// the load's block, before the next store into the cells (the copy that
// fills the next cell stores what the cell already holds), and not in a
// phi, a defer or a closure, which would read the register later.
func loopRegister(phi *ssa.Phi) bool {
	outer, next, ok := loopFamily(phi)
	if !ok {
		return false
	}
	for _, m := range []ssa.Value{outer, next, phi} {
		for _, r := range *m.Referrers() {
			ld, isLoad := r.(*ssa.UnOp)
			if !isLoad {
				continue
			}
			b := ld.Block()
			end := len(b.Instrs)
			for i := indexOf(ld) + 1; i < len(b.Instrs); i++ {
				if st, isStore := b.Instrs[i].(*ssa.Store); isStore && (st.Addr == outer || st.Addr == next) && !isCopy(st, phi) {
					end = i
					break
				}
			}
			if !usedWithin(ld, b, end, map[ssa.Value]bool{}) {
				return false
			}
		}
	}
	return true
}

// usedWithin reports whether v and the values computed from it are used
// only by instructions of block b up to index end (the store there reads
// them before it writes), other than phis, defers and closures.
func usedWithin(v ssa.Value, b *ssa.BasicBlock, end int, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	for _, u := range *v.Referrers() {
		if _, isDebug := u.(*ssa.DebugRef); isDebug {
			continue
		}
		if u.Block() != b || indexOf(u) > end {
			return false
		}
		switch u := u.(type) {
		case *ssa.Phi, *ssa.Defer, *ssa.MakeClosure:
			return false
		case ssa.Value:
			if !usedWithin(u, b, end, seen) {
				return false
			}
		}
	}
	return true
}

// isCopy reports whether st fills the next cell of phi's loop variable
// (loopFamily) from the current one.
func isCopy(st *ssa.Store, phi *ssa.Phi) bool {
	ld, ok := st.Val.(*ssa.UnOp)
	return ok && ld.Op == token.MUL && ld.X == phi
}

// ownCell reports whether the cell a allocated is private to p.
func (p *proc) ownCell(fr *frame, a *ssa.Alloc) bool {
	v, ok := fr.vals[a]
	return ok && v.kind == vPtr && !v.ptr.dynamic() && v.ptr.obj.owner == p.idx
}

// loopCellPhi binds phi, when it chooses the cells of a loop variable that
// the parent keeps as one (loopFamily), to that cell, and reports whether
// it did.
func (p *proc) loopCellPhi(fr *frame, phi *ssa.Phi) bool {
	outer := cellAlias(phi)
	if outer == nil || !p.ownCell(fr, outer) {
		return false
	}
	fr.vals[phi] = fr.vals[outer]
	return true
}

// capturedCell lowers, at cur, an instruction on a captured variable that
// this file models: the cells of a loop variable the parent keeps as one,
// and the channel variables that hold one channel. ok is false for other
// instructions.
func (p *proc) capturedCell(fr *frame, in ssa.Instruction, cur int) (next int, ok bool) {
	s := p.s
	switch in := in.(type) {
	case *ssa.Alloc:
		if outer := cellAlias(in); outer != nil && p.ownCell(fr, outer) {
			// The next cell of a loop variable: the parent keeps the
			// outer one.
			fr.vals[in] = s.get(fr, outer)
			return cur, true
		}
	case *ssa.Store:
		a, isAlloc := in.Addr.(*ssa.Alloc)
		if !isAlloc {
			return cur, false
		}
		if phi := loopCells(a); phi != nil && isCopy(in, phi) && p.ownCell(fr, cellAlias(phi)) {
			return cur, true // it stores what the one cell holds
		}
		if !fixedChanCell(a) {
			return cur, false
		}
		ptr, val := s.get(fr, a), s.get(fr, in.Val)
		if ptr.kind != vPtr || ptr.ptr.dynamic() || val.kind != vChan {
			return cur, false
		}
		s.fixChan(ptr.ptr.obj, val, in.Pos())
		return cur, true
	case *ssa.UnOp:
		if in.Op != token.MUL {
			return cur, false
		}
		ptr := s.get(fr, in.X)
		if ptr.kind != vPtr || ptr.ptr.dynamic() || len(ptr.ptr.path) > 0 {
			return cur, false
		}
		if v, ok := s.calls.fixedChans[ptr.ptr.obj]; ok {
			fr.vals[in] = v
			return cur, true
		}
		if phi := loopCells(in.X); phi != nil && ptr.ptr.obj.owner == p.idx && loopRegister(phi) {
			fr.vals[in] = intVal(model.R(p.privateReg(ptr.ptr)))
			return cur, true
		}
	}
	return cur, false
}

// fixChan records that o, a variable that holds one channel for its whole
// life (fixedChanCell), holds v.
func (s *system) fixChan(o *object, v value, pos token.Pos) {
	if s.calls.fixedChans == nil {
		s.calls.fixedChans = map[*object]value{}
	}
	if old, ok := s.calls.fixedChans[o]; ok && !same(old, v) {
		s.unsupported(pos, "a channel variable that holds different channels")
	}
	s.calls.fixedChans[o] = v
}
