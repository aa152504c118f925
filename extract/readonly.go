package extract

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Fields that goroutines only read.
//
// A goroutine's load of an integer cell in memory is a read of its
// variable, into a register whose values the domain inference finds
// later; the lowering does not know them. Where it needs a constant (a
// time moved by a duration: a limiter's period, a cache's default
// lifetime, kept in a field the constructor sets), it asks for the field
// (requestReadOnly): another round reads every cell of that field (by
// its declaration) that no goroutine writes as the value the set-up left
// there, a constant, while the read stays a read of memory, for the race
// check. A round in which a goroutine writes a cell of such a field asks
// for yet another, without it (checkReadOnly).

// requestReadOnly asks, for the SSA value v loaded from a field, that
// another round read that field's cells as the set-up left them.
func (s *system) requestReadOnly(v ssa.Value) {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] || len(seen) > 16 {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Convert:
			walk(x.X)
			return
		case *ssa.ChangeType:
			walk(x.X)
			return
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
			return
		}
		if f := loadedField(v); f != nil {
			s.markReadOnly(f, "a field that goroutines only read is read as the set-up left it")
		}
	}
	walk(v)
}

// markReadOnly asks that another round read the cells of decl as the
// set-up left them, why, unless a round already asked or found a
// goroutine writes one. It reports whether it asked.
func (s *system) markReadOnly(decl *types.Var, why string) bool {
	if s.heap.hint.readOnly[decl] || s.heap.hint.notReadOnly[decl] || s.heap.readOnly[decl] {
		return false
	}
	if s.heap.readOnly == nil {
		s.heap.readOnly = map[*types.Var]bool{}
	}
	s.heap.readOnly[decl] = true
	s.heapChange(why)
	return true
}

// requestReadOnlyString asks, for an instruction in that looks inside a
// string the model does not know (indexes it, slices it) and that a
// goroutine loaded from a variable of the system function (a loop's
// for _, k := range keys captured by a go statement), that another round
// read that variable's cells as the set-up left them.
func (s *system) requestReadOnlyString(fr *frame, in ssa.Instruction) {
	str, _, _ := stringOperand(in)
	if str == nil {
		return
	}
	decl := s.get(fr, str).strCell
	if decl == nil || !s.markReadOnly(decl, "a string that goroutines only read is read as the set-up left it") {
		return
	}
	if decl.Parent() != nil && decl.Parent() != decl.Pkg().Scope() {
		if s.heap.readOnlyLocals == nil {
			s.heap.readOnlyLocals = map[*types.Var]bool{}
		}
		s.heap.readOnlyLocals[decl] = true
	}
}

// readOnlyValue returns the constant a load of the integer cell ptr
// gives when its field is read-only (requestReadOnly): what the set-up
// left there. ok is false for other cells.
func (s *system) readOnlyValue(ptr pointer) (value, bool) {
	if ptr.obj == nil || ptr.obj.owner >= 0 || ptr.dynamic() {
		return value{}, false
	}
	_, decl := ptr.target()
	if len(ptr.path) == 0 && (decl == nil || decl.Parent() == nil || decl.Parent() != decl.Pkg().Scope()) && !s.heap.hint.readOnlyLocals[decl] {
		// Not a field, nor a package-level variable, nor a variable of
		// the system function whose string a goroutine looks inside.
		return value{}, false
	}
	if decl == nil || !s.heap.hint.readOnly[decl.Origin()] {
		return value{}, false
	}
	v, ok := s.mem[ptr.key()]
	if !ok {
		return constVal(0), true
	}
	if _, isConst := v.constant(); !isConst {
		return value{}, false
	}
	return v, true
}

// checkReadOnly asks for another round when a goroutine writes a cell of
// a field this round read as the set-up left it.
func (s *system) checkReadOnly() {
	if len(s.heap.hint.readOnly) == 0 {
		return
	}
	for x := range writtenVars(s.prog) {
		if x < 0 || x >= len(s.varDecl) {
			continue
		}
		d := s.varDecl[x]
		if d == nil || !s.heap.hint.readOnly[d.Origin()] {
			continue
		}
		if s.heap.notReadOnly == nil {
			s.heap.notReadOnly = map[*types.Var]bool{}
		}
		if !s.heap.notReadOnly[d.Origin()] {
			s.heap.notReadOnly[d.Origin()] = true
			s.heapChange("a goroutine writes a field read as the set-up left it")
		}
	}
}
