package extract

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Float map keys.
//
// Go's maps compare float keys by float equality: -0 and +0 are one key,
// and a NaN equals no key, itself included, so that every m[NaN] = v adds
// an entry that no lookup finds and a delete never removes. The model
// keys a slot by the bits of the key with -0 made +0 (canonKey), so that
// a lookup, an assignment or a delete of -0 is one of +0; no slot is ever
// a NaN's, so a lookup or a delete of a NaN finds nothing, as in Go.
//
// Two insertions are refused where they run, with the reason, as the
// slots cannot hold them: a NaN, which would need an entry of its own for
// each insertion, and -0 into a map that a range visits, since Go then
// keeps -0 as the key (an assignment to an existing float key overwrites
// the key too), which the range would show while the slot holds +0. That
// a range visits the map is known from the previous round of lowering; a
// round that finds it after lowering such an insertion asks for another.
// The set-up refuses them at their position; a goroutine that reaches one
// is a run-time refusal.

// canonKey returns the cells es of a key of m with -0 made +0 in each
// float cell.
func (s *system) canonKey(m *mapObj, es []model.Expr) []model.Expr {
	var out []model.Expr
	for i, c := range m.cells {
		w := floatBits(c.typ)
		if w == 0 {
			continue
		}
		if out == nil {
			out = append([]model.Expr(nil), es...)
		}
		nz := negZero(w)
		if k, ok := es[i].(model.Const); ok {
			if k.Value == nz {
				out[i] = model.C(0)
			}
			continue
		}
		// e * (e != -0): -0 times 0 is 0, any other key times 1 itself.
		out[i] = model.Bin(model.OpMul, es[i], model.Bin(model.OpNe, es[i], model.C(nz)))
	}
	if out == nil {
		return es
	}
	return out
}

// floatKeyTests returns, for a key of m of cells es, the conditions that
// a float cell is a NaN and that one is -0 (nil for a map without float
// keys), each folded to a constant when the cells are.
func floatKeyTests(m *mapObj, es []model.Expr) (nan, negz model.Expr) {
	for i, c := range m.cells {
		w := floatBits(c.typ)
		if w == 0 {
			continue
		}
		n, z := model.F(model.FNe, w, es[i], es[i]), model.Bin(model.OpEq, es[i], model.C(negZero(w)))
		if k, isConst := es[i].(model.Const); isConst {
			n, z = model.C(b2i(isNaNBits(k.Value, w))), model.C(b2i(k.Value == negZero(w)))
		}
		nan, negz = orElse(nan, n), orElse(negz, z)
	}
	return foldConst(nan), foldConst(negz)
}

// foldConst folds e when it is made of constants joined by || (nil stays
// nil).
func foldConst(e model.Expr) model.Expr {
	b, ok := e.(model.Binary)
	if !ok || b.Op != model.OpOr {
		return e
	}
	x, y := foldConst(b.X), foldConst(b.Y)
	cx, okx := x.(model.Const)
	cy, oky := y.(model.Const)
	if okx && oky {
		return model.C(b2i(cx.Value != 0 || cy.Value != 0))
	}
	return or(x, y)
}

// isConstC reports whether e is the constant c.
func isConstC(e model.Expr, c int64) bool {
	k, ok := e.(model.Const)
	return ok && k.Value == c
}

const (
	whyNaNKey  = "each insertion of a NaN key adds an entry of its own, which fencecheck does not keep"
	whyZeroKey = "Go keeps the sign of a zero key last inserted, which a range over the map shows; fencecheck keeps +0"
)

// zeroKeyShows reports whether the sign of a -0 key inserted into m may
// show: a range visits the map (known from the previous round, or asking
// for another one when this round finds it later).
func (s *system) zeroKeyShows(m *mapObj) bool {
	if s.maps.zeroInserts == nil {
		s.maps.zeroInserts = map[*ssa.MakeMap]bool{}
	}
	s.maps.zeroInserts[m.site] = true
	if s.heap.hint.maps.floatRanged[m.site] {
		return true
	}
	if s.maps.floatRanged[m.site] {
		s.heapChange("a map into which -0 may be inserted is ranged over")
	}
	return false
}

// rangedFloatKeys notes a range over m, a map whose keys may hold floats.
func (s *system) rangedFloatKeys(m *mapObj) {
	if !slices.ContainsFunc(m.cells, func(c cell) bool { return floatBits(c.typ) != 0 }) {
		return
	}
	if s.maps.floatRanged == nil {
		s.maps.floatRanged = map[*ssa.MakeMap]bool{}
	}
	s.maps.floatRanged[m.site] = true
	if s.maps.zeroInserts[m.site] && !s.heap.hint.maps.floatRanged[m.site] {
		s.heapChange("a map into which -0 may be inserted is ranged over")
	}
}

// setupFloatKey refuses the insertion of a NaN key by the set-up, and of
// -0 into a map a range visits.
func (s *system) setupFloatKey(m *mapObj, key value, pos token.Pos) {
	nan, negz := floatKeyTests(m, s.rawKeyExprs(m, key, pos))
	switch {
	case isConstC(nan, 1):
		s.unsupported(pos, "inserting a NaN key into the map %s (%s)", s.mapLabel(m), whyNaNKey)
	case isConstC(negz, 1) && s.zeroKeyShows(m):
		s.unsupported(pos, "inserting a -0 key into the map %s (%s)", s.mapLabel(m), whyZeroKey)
	}
}

// insertFloatKey emits, from cur, the run-time refusal of inserting a NaN
// key of cells es into m, or -0 into a map a range visits, and returns
// where the insertion of any other key goes on (-1: nowhere).
func (p *proc) insertFloatKey(m *mapObj, es []model.Expr, pos token.Pos, cur int) int {
	s := p.s
	nan, negz := floatKeyTests(m, es)
	if nan == nil {
		return cur
	}
	label := s.mapLabel(m)
	refuse := func(cond model.Expr, what, why string) {
		if cond == nil || isConstC(cond, 0) {
			return
		}
		if isConstC(cond, 1) {
			cur = p.refuseAt(cur, "inserting a "+what+" key into the map "+label+" ("+why+")", pos)
			return
		}
		if cur < 0 {
			return
		}
		p.refuseAt(p.emit(cur, model.GuardOp(cond), pos, Origin{}), "inserting a "+what+" key into the map "+label+" ("+why+")", pos)
		cur = p.emit(cur, model.GuardOp(negate(cond)), pos, Origin{})
	}
	refuse(nan, "NaN", whyNaNKey)
	if !isConstC(negz, 0) && s.zeroKeyShows(m) {
		refuse(negz, "-0", whyZeroKey)
	}
	return cur
}
