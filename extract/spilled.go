package extract

import (
	"go/token"

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
