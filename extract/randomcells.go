package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Random numbers kept in memory and masked by run-time values.
//
// Striped counters pick their stripe with a random number they keep: a
// token's idx field holds cheaprand()'s result, and each Add reads it
// back and masks it with the counter's mask (xsync's Counter:
// c.stripes[t.idx&c.mask], and t.idx = cheaprand() again after a failed
// CAS). The result of such a call is any non-negative value (runtime.go),
// which the model does not hold in a cell; two rules cover it.
//
// A cell that a goroutine stores such a value in is a random cell: every
// cell of the same field or variable (by its declaration). A round that
// stores one asks for another (heapHint.randomCells), in which a load of a
// random cell gives again any value of its type, so it takes every value
// a store put there. The store is still a write of the cell, of 0, and the
// load a read, so races on it are found as on any cell. Other stores into
// a random cell must be values the load covers: any value of an unsigned
// type, non-negative constants of a signed one; others are refused.
//
// x & m and x % n, with x any non-negative value and m or n known only at
// run time, are a choice of the results that m or n allow: k in [0, 16)
// with k & m == k, or k below n. A mask outside [0, 16), or an n outside
// [1, 16], is a run-time refusal.

// randomCell returns the declaration that makes the cells of ptr's kind
// random cells (the field or variable it names), or nil.
func randomCell(ptr pointer) *types.Var {
	if ptr.obj == nil {
		return nil
	}
	_, decl := ptr.target()
	return decl
}

// storeRandom lowers the store of val into the integer cell ptr when val
// is any value, or ptr a random cell: ok is false for other stores. It
// returns the expression to write.
func (p *proc) storeRandom(ptr pointer, val value, t types.Type, pos token.Pos) (model.Expr, bool) {
	s := p.s
	decl := randomCell(ptr)
	if val.anyInt {
		if decl == nil {
			s.unsupported(pos, "%s", val.why)
		}
		if s.heap.randomCells == nil {
			s.heap.randomCells = map[*types.Var]string{}
		}
		s.heap.randomCells[decl] = val.rand
		if _, ok := s.heap.hint.randomCells[decl]; !ok {
			s.heapChange("a random number is kept in memory")
		}
		return model.C(0), true
	}
	if _, random := s.heap.hint.randomCells[decl]; decl == nil || !random {
		return nil, false
	}
	if c, isConst := val.constant(); isUnsigned(t) || isConst && c >= 0 {
		return s.asInt(val, pos), true
	}
	s.unsupported(pos, "storing a value other than a non-negative constant in %s, which holds random numbers (%s)", decl.Name(), s.heap.hint.randomCells[decl])
	return nil, false
}

// loadRandom lowers the load in of the integer cell ptr when it is a
// random cell: a read of the cell whose value is any value of the type.
// ok is false for other cells.
func (p *proc) loadRandom(fr *frame, in *ssa.UnOp, ptr pointer, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	decl := randomCell(ptr)
	what, random := s.heap.hint.randomCells[decl]
	if decl == nil || !random {
		return cur, false
	}
	name := p.regName(fr, in)
	if o.Target != nil {
		name = types.ExprString(o.Target)
	}
	r := p.newReg(name, in.Type())
	fr.vals[in] = anyValueOf(fmt.Sprintf("%s, which holds random numbers (%s)", name, what), what, in.Type())
	return p.readCell(cur, ptr, r, pos, o), true
}

// anyByRegister lowers x & m and x % n, with x any non-negative value and
// the other operand an integer known only at run time: for every k of
// [0, 16), a step to k & m or k % n, which are the results m or n allow,
// and a run-time refusal for an operand out of range. ok is false for
// other operations.
func (p *proc) anyByRegister(fr *frame, in *ssa.BinOp, cur int) (int, bool) {
	s := p.s
	xv, yv := in.X, in.Y
	if in.Op == token.AND && s.get(fr, yv).anyInt {
		xv, yv = yv, xv
	}
	x, y := s.get(fr, xv), s.get(fr, yv)
	if !x.anyInt || y.kind != vInt || in.Op != token.AND && in.Op != token.REM {
		return cur, false
	}
	if _, isConst := y.constant(); isConst {
		return cur, false
	}
	lo, hi := int64(0), int64(maxRandChoices-1) // a mask's range
	op := model.OpBitAnd
	if in.Op == token.REM {
		lo, hi, op = 1, maxRandChoices, model.OpMod
	}
	pos := in.Pos()
	bad := model.Bin(model.OpOr, model.Bin(model.OpLt, y.e, model.C(lo)), model.Bin(model.OpGt, y.e, model.C(hi)))
	operand, whole := s.x.valueName(fr.fn, yv), fmt.Sprintf("%s %s %s", x.rand, in.Op, s.x.valueName(fr.fn, yv))
	if e, ok := s.x.debugOf(fr.fn).expr[yv]; ok {
		operand = types.ExprString(s.x.fullExpr(e))
	}
	if e, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		whole = fmt.Sprintf("%s (of %s's random numbers)", types.ExprString(s.x.fullExpr(e)), x.rand)
	}
	p.refuseAt(p.emit(cur, model.GuardOp(bad), pos, Origin{}),
		fmt.Sprintf("%s with %s outside [%d, %d]", whole, operand, lo, hi), pos)
	cur = p.emit(cur, model.GuardOp(model.Not(bad)), pos, Origin{})
	if !used(in) {
		return cur, true
	}
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	fr.vals[in] = intVal(model.R(r))
	next := p.newLoc(pos)
	for k := range int64(maxRandChoices) {
		p.emitTo(cur, model.AssignOp(r, model.Bin(op, model.C(k), y.e)), next, pos, Origin{})
	}
	return next, true
}

// anyArith evaluates x + y, x - y and x ^ y of an unsigned type with an
// operand that is any value: any value again, since each of these maps
// the values of the type one to one (RBMutex's t.slot + uint32(i)). ok is
// false for other operations.
func anyArith(x, y value, in *ssa.BinOp) (value, bool) {
	switch in.Op {
	case token.ADD, token.SUB, token.XOR:
	default:
		return value{}, false
	}
	if !isUnsigned(in.Type()) || !isIntegral(in.Type()) {
		return value{}, false
	}
	switch {
	case x.anyInt && (y.kind == vInt || y.anyInt):
		return x, true
	case y.anyInt && x.kind == vInt:
		return y, true
	}
	return value{}, false
}
