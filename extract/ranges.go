package extract

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// A //fencecheck:range on a goroutine-local variable bounds what the
// variable becomes in the model. A local whose address is never taken and
// that no closure captures lives in SSA values: each value assigned to it
// that is not a constant of the range goes, at the assignment, into a
// register whose domain is the range, and so do the phis that merge its
// values. A local kept in memory private to one goroutine is a register of
// that domain (see [proc.privateReg]). A value outside the range faults,
// as a store outside the range of a shared variable does; a register's
// initial value is the zero value, or the bound of the range nearest to it
// (a register is always assigned before it is read). The setup, run
// concretely, checks the constants it assigns instead.

// rangedLocal returns the local variable with a //fencecheck:range that dr
// assigns, and its range, when fn keeps the variable in SSA values; nil
// otherwise (dr is a use, or the variable lives in memory).
func (x *extractor) rangedLocal(fn *ssa.Function, dr *ssa.DebugRef) (*types.Var, model.Domain) {
	if dr.IsAddr || dr.X == nil {
		return nil, model.Domain{}
	}
	v, _ := dr.Object().(*types.Var)
	if v == nil {
		return nil, model.Domain{}
	}
	dom, ok := x.dirs.Ranges[v]
	if !ok || !x.assigns(dr, v) || !x.lifted(fn, v) {
		return nil, model.Domain{}
	}
	return v, dom
}

// assigns reports whether dr binds a new value to v: its expression is v's
// declaration or the left-hand side of an assignment, rather than a use.
func (x *extractor) assigns(dr *ssa.DebugRef, v *types.Var) bool {
	id, ok := dr.Expr.(*ast.Ident)
	if !ok {
		return false
	}
	if x.info.Defs[id] == v {
		return true
	}
	is := func(e ast.Expr) bool { return e != nil && ast.Unparen(e) == id }
	switch st := x.stmtAt(id.Pos(), id.End()).(type) {
	case *ast.AssignStmt:
		for _, l := range st.Lhs {
			if is(l) {
				return true
			}
		}
	case *ast.IncDecStmt:
		return is(st.X)
	case *ast.RangeStmt:
		return is(st.Key) || is(st.Value)
	}
	return false
}

// lifted reports whether fn keeps its local variable v in SSA values: v is
// declared in fn and no Alloc of fn holds it.
func (x *extractor) lifted(fn *ssa.Function, v *types.Var) bool {
	syn := fn.Syntax()
	if syn == nil || v.Pos() < syn.Pos() || v.Pos() >= syn.End() {
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if a, ok := in.(*ssa.Alloc); ok && a.Pos() == v.Pos() {
				return false
			}
		}
	}
	return true
}

// rangeReg gives register r the range of v, when v has one.
func (p *proc) rangeReg(r int, v *types.Var) {
	if v == nil {
		return
	}
	dom, ok := p.s.x.dirs.Ranges[v]
	if !ok {
		return
	}
	p.s.x.dirs.UseRange(v)
	if p.ranged == nil {
		p.ranged = map[int]model.Domain{}
	}
	p.ranged[r] = dom
	switch {
	case dom.Lo > 0:
		p.q.Regs[r].Init = model.Init{Value: dom.Lo}
	case dom.Hi < 0:
		p.q.Regs[r].Init = model.Init{Value: dom.Hi}
	}
}

// rangePhi gives the register of a phi the range of the local variable whose
// values it merges, when that variable has one.
func (p *proc) rangePhi(fn *ssa.Function, phi *ssa.Phi, r int) {
	v := p.s.x.defs[phi.Pos()]
	if v == nil || v.Name() != phi.Comment || !p.s.x.lifted(fn, v) {
		return
	}
	p.rangeReg(r, v)
}

// rangeLocal lowers a DebugRef, at location cur: when it assigns a value to
// a local variable with a range, the value goes into a register of that
// range, so that a value outside it faults here. The register then stands
// for the value in the rest of its block and the blocks it dominates.
func (p *proc) rangeLocal(fr *frame, dr *ssa.DebugRef, cur int) int {
	x := p.s.x
	v, dom := x.rangedLocal(fr.fn, dr)
	if v == nil {
		return cur
	}
	x.dirs.UseRange(v)
	val := p.s.get(fr, dr.X)
	if val.kind != vInt {
		return cur
	}
	if c, ok := val.constant(); ok && dom.Contains(c) {
		return cur
	}
	if rr, ok := val.e.(model.RegRef); ok && rr.Proc < 0 {
		if d, ok := p.ranged[rr.Reg]; ok && dom.Contains(d.Lo) && dom.Contains(d.Hi) {
			return cur
		}
	}
	r := p.newReg(v.Name(), v.Type())
	p.rangeReg(r, v)
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{v.Name(), v.Pos()}
	pos, o := dr.Pos(), Origin{}
	if st := x.stmtAt(dr.Expr.Pos(), dr.Expr.End()); st != nil {
		pos, o.Node = st.Pos(), st
	}
	cur = p.emit(cur, model.AssignOp(r, val.e), pos, o)
	if in, ok := dr.X.(ssa.Instruction); ok && in.Block() == dr.Block() {
		fr.vals[dr.X] = intVal(model.R(r))
	}
	return cur
}

// setupRange checks, in the setup, a DebugRef that assigns a value to a
// local variable with a range: a constant outside the range is reported.
func (s *system) setupRange(fr *frame, dr *ssa.DebugRef) {
	v, dom := s.x.rangedLocal(fr.fn, dr)
	if v == nil {
		return
	}
	s.x.dirs.UseRange(v)
	if c, ok := s.get(fr, dr.X).constant(); ok && !dom.Contains(c) {
		s.fail(dr.Pos(), "the setup of system %s gives %s the value %d, outside its //fencecheck:range %d..%d", s.name, v.Name(), c, dom.Lo, dom.Hi)
	}
}
