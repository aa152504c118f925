package extract

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Times in nanoseconds.
//
// t.UnixNano() of a time the clock models (clock.go) is an int64 that
// real code keeps in memory and compares: go-cache's expiry
// (time.Now().Add(d).UnixNano(), later now > item.Expiration), a
// limiter's next permitted instant in an atomic int64. The model keeps it
// as the time's word (timeWord): the reading, moved by a constant, and 0
// for the integer 0 (the Unix epoch, before every reading). Such a value
// is a clockVal with nanos set; what the model computes of it:
//
//   - comparisons with another one (the readings compared, as t.Before
//     and t.After compare them);
//   - comparisons with a constant: 0 compares as 0, a reading as a number
//     beyond every constant below 2^60 (a reading is in 2026 or later,
//     about 1.8e18 ns after the epoch); a constant from 2^60 on is
//     refused;
//   - their difference, a duration of ticks as t.Sub's (a reading minus
//     0 is one beyond those constants too);
//   - adding or subtracting a duration: the time moved;
//   - storing it, and joining it with others or with 0 at a phi.
//
// Anything else done with it is refused at the operation. A cell that a
// goroutine or the set-up stores one in is a clock cell: every cell of
// the same field (by its declaration), as for random cells
// (randomcells.go). A round that stores one asks for another
// (heapHint.nanosCells), in which a value loaded from such a field (by
// *&x.f, x.f of a struct value read from a map, or an atomic load) is
// read as a word. Other stores into a clock cell must be 0.

// nanosLimit bounds the constants a reading's nanoseconds compare with.
const nanosLimit = 1 << 60

// nanosValue is the Unix nanoseconds of the time c.
func nanosValue(c clockVal) value {
	v := opaque("nanoseconds of a time the clock models (t.UnixNano()), which count ticks of any length: only comparisons, differences, adding durations and storing them are modelled")
	c.nanos, c.dur, c.inf = true, false, nil
	v.clock = &c
	return v
}

// maxNanosOffset bounds how far the model moves nanoseconds of a reading
// (about 9 years), so that a reading moved stays beyond nanosLimit.
const maxNanosOffset = 1 << 58

// unixNano is t.UnixNano() of the time c: nanoseconds of a reading, moved
// by a constant. Of a time moved by an amount known only at run time, it
// is a value the model does not compute (comparisons give either answer,
// other uses are refused, as for a call it does not run); of a time that
// may be the zero Time (whose nanoseconds are negative), it is refused.
func (s *system) unixNano(c clockVal, pos token.Pos) value {
	if c.offE != nil {
		return uncomputedNanos()
	}
	tc, isConst := c.tick.(model.Const)
	if !c.reading && (!isConst || tc.Value == 0) {
		s.unsupported(pos, "t.UnixNano() of a time.Time that may be the zero Time (only a reading of time.Now, moved by a constant, is modelled)")
	}
	if c.off >= maxNanosOffset || c.off <= -maxNanosOffset {
		s.unsupported(pos, "t.UnixNano() of a time moved by more than 2^58 ns")
	}
	return nanosValue(c)
}

// uncomputedNanos is nanoseconds of a time moved by an amount known only
// at run time, which no word of memory holds: a value the model does not
// compute.
func uncomputedNanos() value {
	v := opaque("nanoseconds of a time moved by an amount known only at run time (a duration loaded from memory), which fencecheck does not compute")
	v.uncomputed = true
	return v
}

// isNanos reports whether v is the Unix nanoseconds of a time.
func isNanos(v value) bool { return v.clock != nil && v.clock.nanos }

// fieldVar returns field i of the struct that t is or points to.
func fieldVar(t types.Type, i int) *types.Var {
	t = deref(t)
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i).Origin()
}

// loadedField returns the field that v was loaded from: *&x.f, x.f of a
// struct value, an atomic load of &x.f, or x.f.Load() of a typed atomic;
// nil for other values.
func loadedField(v ssa.Value) *types.Var {
	addr := func(a ssa.Value) *types.Var {
		switch a := a.(type) {
		case *ssa.FieldAddr:
			return fieldVar(a.X.Type(), a.Field)
		case *ssa.Global:
			v, _ := a.Object().(*types.Var)
			return v
		}
		return nil
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return addr(v.X)
		}
	case *ssa.Field:
		return fieldVar(v.X.Type(), v.Field)
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || len(v.Call.Args) == 0 {
			return nil
		}
		if obj, _ := fn.Object().(*types.Func); obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
			return nil
		}
		switch fn.Name() {
		case "LoadInt64", "LoadUint64", "Load":
			return addr(v.Call.Args[0])
		}
	}
	return nil
}

// nanosOf returns v, an operand, as Unix nanoseconds: a value of
// t.UnixNano(), or an integer loaded from a clock cell's field.
func (s *system) nanosOf(fr *frame, v ssa.Value) (clockVal, bool) {
	x := s.get(fr, v)
	if isNanos(x) {
		return *x.clock, true
	}
	if x.kind != vInt || x.clock != nil {
		return clockVal{}, false
	}
	if f := loadedField(v); f != nil && s.heap.hint.nanosCells[f] {
		c := s.wordClock(x.e)
		c.nanos, c.word = true, x.e
		return c, true
	}
	return clockVal{}, false
}

// storedWord is the word memory keeps for v, an integer or a time's
// nanoseconds, stored into a cell (noteClockCell has checked the cell).
func (s *system) storedWord(v value, pos token.Pos) model.Expr {
	if isNanos(v) {
		if w, ok := s.timeWord(v, pos); ok {
			return w
		}
		s.unsupported(pos, "storing nanoseconds of a time loaded from memory and moved again (fencecheck keeps a time in memory moved by one of a few constants)")
	}
	return s.asInt(v, pos)
}

// loadedWord is the value of e, loaded from the integer cell ptr: Unix
// nanoseconds when ptr is a clock cell.
func (s *system) loadedWord(ptr pointer, e model.Expr) value {
	if ptr.obj == nil {
		return intVal(e)
	}
	if decl := s.clockKey(ptr); decl != nil && s.heap.hint.nanosCells[decl] {
		c := s.wordClock(e)
		c.word = e
		return nanosValue(c)
	}
	return intVal(e)
}

// durationOperand reports whether v, an operand that moves a time's
// nanoseconds, is a duration: a constant, a time.Duration, or a
// conversion of one.
func durationOperand(v ssa.Value) bool {
	if _, ok := v.(*ssa.Const); ok {
		return true
	}
	if isNamed(v.Type(), "time", "Duration") {
		return true
	}
	switch c := v.(type) {
	case *ssa.Convert:
		return isNamed(c.X.Type(), "time", "Duration")
	case *ssa.ChangeType:
		return isNamed(c.X.Type(), "time", "Duration")
	}
	return false
}

// nanosBinop computes x op y for Unix nanoseconds: a comparison (cmp set,
// for clockCompare), a difference (a duration), or a time moved by an
// integer. ok is false when neither operand is such a value.
func (s *system) nanosBinop(fr *frame, in *ssa.BinOp) (v value, cmp *durCmp, ok bool) {
	x, xn := s.nanosOf(fr, in.X)
	y, yn := s.nanosOf(fr, in.Y)
	if !xn && !yn {
		return value{}, nil, false
	}
	pos := in.Pos()
	yv := s.get(fr, in.Y)
	switch in.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
		op := in.Op
		if !xn {
			x, y, xn, yn = y, x, true, xn
			yv = s.get(fr, in.X)
			op = mirror(op)
		}
		if yn {
			d := clockVal{tick: subTicks(x.tick, y.tick), off: x.off - y.off, offE: addOffsets(x.offE, y.offE, true), dur: true, inf: zeroSign(x.tick, y.tick), epoch: true}
			return value{}, &durCmp{x: d, op: op}, true
		}
		d := clockVal{tick: x.tick, off: x.off, offE: x.offE, dur: true, inf: zeroSign(x.tick, model.C(0)), epoch: true}
		k, isConst := yv.constant()
		if !isConst && yv.kind == vInt && yv.clock == nil && !yv.anyInt {
			// An integer of a cell that holds no time (a literal expiry):
			// nanoseconds since the epoch; a run where it is 2^60 or more
			// is refused (clockCompare).
			return value{}, &durCmp{x: d, op: op, kE: yv.e}, true
		}
		if !isConst || k >= nanosLimit || k <= -nanosLimit {
			s.unsupported(pos, "comparing nanoseconds of a time (t.UnixNano()) with %s (only other such times and constants below 2^60 are modelled)", describe(yv))
		}
		return value{}, &durCmp{x: d, op: op, k: k}, true
	case token.SUB:
		if xn && yn {
			v := withInf(durValue(subTicks(x.tick, y.tick), x.off-y.off, addOffsets(x.offE, y.offE, true)), zeroSign(x.tick, y.tick))
			if v.clock != nil {
				v.clock.epoch = true
			}
			return v, nil, true
		}
		if xn && durationOperand(in.Y) {
			if _, isConst := yv.constant(); !isConst {
				s.requestReadOnly(in.Y)
			}
			return s.movedNanos(x, yv, true, pos), nil, true
		}
	case token.ADD:
		if xn && !yn && durationOperand(in.Y) {
			if _, isConst := yv.constant(); !isConst {
				s.requestReadOnly(in.Y)
			}
			return s.movedNanos(x, yv, false, pos), nil, true
		}
		if yn && !xn && durationOperand(in.X) {
			if _, isConst := s.get(fr, in.X).constant(); !isConst {
				s.requestReadOnly(in.X)
			}
			return s.movedNanos(y, s.get(fr, in.X), false, pos), nil, true
		}
	}
	s.unsupported(pos, "the operator %s on nanoseconds of a time (t.UnixNano()) and %s: only comparisons, differences and adding constants and time.Durations are modelled", in.Op, describe(yv))
	return value{}, nil, false
}

// movedNanos is the time x moved by the integer d (back, with neg).
func (s *system) movedNanos(x clockVal, d value, neg bool, pos token.Pos) value {
	k, ok := d.constant()
	if !ok {
		return uncomputedNanos()
	}
	if k >= maxNanosOffset || k <= -maxNanosOffset {
		s.unsupported(pos, "moving nanoseconds of a time (t.UnixNano()) by more than 2^58 ns")
	}
	if neg {
		k = -k
	}
	x.off += k
	if x.off >= maxNanosOffset || x.off <= -maxNanosOffset {
		s.unsupported(pos, "moving nanoseconds of a time (t.UnixNano()) by more than 2^58 ns")
	}
	x.word = nil
	return nanosValue(x)
}

// timeField returns the field v was loaded from, through moves by
// durations (next + int64(period)): the field an integer joined with a
// time's nanoseconds may hold times; nil when there is none.
func timeField(v ssa.Value) *types.Var {
	for {
		switch x := v.(type) {
		case *ssa.BinOp:
			switch {
			case (x.Op == token.ADD || x.Op == token.SUB) && durationOperand(x.Y):
				v = x.X
				continue
			case x.Op == token.ADD && durationOperand(x.X):
				v = x.Y
				continue
			}
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		}
		return loadedField(v)
	}
}

// markClockCell makes f a clock cell from the next round on.
func (s *system) markClockCell(f *types.Var) {
	if s.heap.nanosCells == nil {
		s.heap.nanosCells = map[*types.Var]bool{}
	}
	s.heap.nanosCells[f] = true
	if !s.heap.hint.nanosCells[f] {
		s.heapChange("nanoseconds of a time are kept in memory")
	}
}

// clockKey is what makes the cells of ptr's kind clock cells: the field
// or variable it names, or, for a cell of an allocation that declares
// none (a function's result slot, which go/ssa allocates when the
// function defers), a variable standing for that allocation; nil when
// there is neither.
func (s *system) clockKey(ptr pointer) *types.Var {
	if ptr.obj == nil {
		return nil
	}
	if _, decl := ptr.target(); decl != nil {
		return decl.Origin()
	}
	a := ptr.obj.alloc
	if a == nil || len(ptr.path) > 0 {
		return nil
	}
	if v, ok := s.x.slotVars[a]; ok {
		return v
	}
	if s.x.slotVars == nil {
		s.x.slotVars = map[*ssa.Alloc]*types.Var{}
	}
	v := types.NewVar(a.Pos(), nil, a.Comment, deref(a.Type()))
	s.x.slotVars[a] = v
	return v
}

// noteClockCell records the store of val into the integer cell ptr: a
// time's nanoseconds make ptr's field a clock cell; into a clock cell,
// only those, 0 and, with raw, integers copied from a cell of the same
// field (the leaves of a struct copied whole) may be stored.
func (s *system) noteClockCell(ptr pointer, val value, raw bool, pos token.Pos) {
	if ptr.obj == nil {
		return
	}
	decl := s.clockKey(ptr)
	if isNanos(val) {
		if decl == nil {
			s.unsupported(pos, "storing nanoseconds of a time (t.UnixNano()) in memory that is no field or variable")
		}
		s.markClockCell(decl)
		return
	}
	if decl == nil || !s.heap.hint.nanosCells[decl] {
		return
	}
	if c, ok := val.constant(); ok && c == 0 {
		return
	}
	if raw && val.kind == vInt && val.clock == nil {
		return
	}
	s.unsupported(pos, "storing %s in %s, which holds nanoseconds of times (t.UnixNano()): only those and 0 are modelled there", describe(val), decl.Name())
}

// nanosPhi joins Unix nanoseconds and zeros at phi: a register holding
// the word. ok is false for other joins.
func (p *proc) nanosPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) bool {
	if slices.ContainsFunc(known, isNanos) {
		// A field an edge loads its integer from (a limiter's next
		// instant plus its period) holds times too: another round reads it
		// so, where a store of anything else into it is refused.
		for _, e := range phi.Edges {
			if f := timeField(e); f != nil && !p.s.heap.hint.nanosCells[f] {
				p.s.markClockCell(f)
			}
		}
	}
	some := false
	for _, v := range known {
		switch {
		case isNanos(v):
			if _, ok := p.s.timeWord(v, phi.Pos()); !ok {
				return false
			}
			some = true
		case v.kind == vInt:
			if c, ok := v.constant(); !ok || c != 0 {
				return false
			}
		default:
			return false
		}
	}
	if !some {
		return false
	}
	r := p.newReg(p.regName(fr, phi), phi.Type())
	p.holds(r, fr, phi)
	st.phiReg[phi] = r
	c := p.s.wordClock(model.R(r))
	c.word = model.R(r)
	fr.vals[phi] = nanosValue(c)
	return true
}

// checkEpochBound refuses a comparison of a duration between nanoseconds
// of times (a reading minus 0 is about 1.8e18) with a constant of 2^60 or
// more, which the model's "beyond every constant" does not decide.
func (s *system) checkEpochBound(c durCmp, pos token.Pos) {
	if c.x.epoch && c.kE == nil && (c.k >= nanosLimit || c.k <= -nanosLimit) {
		s.unsupported(pos, "comparing nanoseconds of a time (t.UnixNano()), or a difference of them, with a constant of 2^60 or more")
	}
}
