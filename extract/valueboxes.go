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

// Interface values holding structs, arrays, functions and channels.
//
// Go copies such a payload into a fresh allocation when it converts it to
// an interface, and never writes that copy again. The model does the
// same: a conversion makes a value box, an object of the payload's type
// (marked byValue) whose cells are written with the payload where the
// conversion runs; the interface value is its heap id, as for a pointer,
// but its dynamic type is the payload's type, not a pointer to it. A box
// that never reaches memory, a join or a comparison stays a value of the
// lowering (its cells are never made); one that does is shared from the
// next round on (pointers.go), like any object whose address escapes.
//
// A type assertion to the payload's type on a value known only at run
// time reads the cells of the box its id names (a case split over the
// boxes of that type); a method call reads them as the receiver. Go
// compares such interface values by their payloads (and panics on
// functions), while the model holds identities: a comparison with
// anything but nil, and their use as map keys, is refused. A box made in
// a loop of a goroutine that reaches memory takes the next of a pool of
// boxes on each execution, as an allocation does (allocPool); past the
// pool the answer is inconclusive. Slices have boxes of their own, one per
// window (anyslice.go); maps stay unsupported in interface values that
// reach memory.
//
// An integer or a string computed at run time has a box per value it takes
// (anyint.go), so that equal values have equal ids; when those boxes do
// not settle (a counter kept in an interface value takes one more value in
// each round), such payloads get value boxes too, and comparisons of
// those are refused as well.

// byValueType reports whether an interface value of dynamic type t is a
// value box: a struct, an array, a function or a channel.
func byValueType(t types.Type) bool {
	if classify(t) != leafOther {
		return false // integers, strings, pointers, sync and atomic types
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array, *types.Signature, *types.Chan:
		return true
	}
	return false
}

// whyNewBox is the reason of a round that made a new box.
const whyNewBox = "an interface value gets a box"

// maxBoxGrowth is the number of rounds in a row that may make new boxes
// of integers computed at run time (anyint.go) before such integers get
// value boxes instead: a counter kept in an interface value (go-cache's
// IncrementInt: v.Object.(int) + n stored back) takes one more value each
// round. The switch gives the system boxGrowthRounds more rounds than
// maxHeapRounds, for the value boxes to settle.
const (
	maxBoxGrowth    = 3
	boxGrowthRounds = 3
)

// valueBoxed reports whether a conversion in a goroutine makes a value
// box: a struct, an array, a function or a channel, and, once the boxes
// of run-time integers do not settle, an integer or a string known only at
// run time.
func (s *system) valueBoxed(fr *frame, in *ssa.MakeInterface) bool {
	t := in.X.Type()
	if byValueType(t) {
		return true
	}
	if !s.heap.hint.intBoxes || !isScalarPayload(t) {
		return false
	}
	v := s.get(fr, in.X)
	_, isConst := v.constant()
	return v.kind == vInt && !isConst
}

// boxCells returns the cells of a value box of type t: those of a struct
// or an array, or the box's one cell.
func (s *system) boxCells(t types.Type, pos token.Pos) []cell {
	if !isAggregate(t) {
		return []cell{{typ: t}}
	}
	cells := s.aggCells(t, pos)
	for _, c := range cells {
		if !isElemCell(c.typ) {
			s.unsupported(pos, "an interface value holding a %s, whose %s is a %s, stored in memory, merged or compared (a box holds integers, booleans, strings, pointers, interface values, functions and channels)", t, strings.TrimPrefix(c.name, "."), c.typ)
		}
	}
	return cells
}

// valueBoxName names the box of a conversion as the source spells it.
func (s *system) valueBoxName(fr *frame, in *ssa.MakeInterface) string {
	if e, ok := s.x.debugOf(fr.fn).expr[in.X]; ok {
		return fmt.Sprintf("any(%s)", types.ExprString(s.x.fullExpr(e)))
	}
	return fmt.Sprintf("any(%s)", types.TypeString(in.X.Type(), types.RelativeTo(s.x.pkg)))
}

// boxPos is where a conversion is made: the converted expression for an
// implicit one, else the first instruction that uses it.
func (s *system) boxPos(fr *frame, in *ssa.MakeInterface) token.Pos {
	if in.Pos().IsValid() {
		return in.Pos()
	}
	if e, ok := s.x.debugOf(fr.fn).expr[in.X]; ok {
		return e.Pos()
	}
	if refs := in.Referrers(); refs != nil {
		for _, r := range *refs {
			if r.Pos().IsValid() {
				return r.Pos()
			}
		}
	}
	return in.X.Pos()
}

// setupValueBox makes the box of a conversion in the set-up: its cells
// hold the payload in the set-up's memory. A payload the model does not
// hold (a value of another package's type that it does not compute) gets
// none: only storing it is refused.
func (s *system) setupValueBox(fr *frame, in *ssa.MakeInterface, payload value) *object {
	switch payload.kind {
	case vAgg, vFunc, vNil, vChan:
	default:
		return nil
	}
	o := s.newObject(s.valueBoxName(fr, in), in.X.Type(), nil, -1)
	o.byValue = true
	s.setupStore(pointer{obj: o}, payload, in.X, in.Pos())
	return o
}

// makeValueBox lowers a conversion of a struct, array, function or channel
// to an interface in a goroutine: the box's cells are written when the box
// is shared.
func (p *proc) makeValueBox(fr *frame, b *ssa.BasicBlock, in *ssa.MakeInterface, cur int) int {
	s := p.s
	t, pos := in.X.Type(), s.boxPos(fr, in)
	payload := s.get(fr, in.X)
	o := s.newObject(s.valueBoxName(fr, in), t, nil, p.idx)
	o.byValue = true
	fr.vals[in] = value{kind: vIface, typ: t, env: []value{payload}, box: o}
	fill := func(o *object, at int) int {
		for _, c := range s.boxCells(t, pos) {
			x := payload
			if isAggregate(t) {
				x = cellOf(payload, c)
			}
			e := s.cellExpr(c.typ, x, pos)
			at = p.emit(at, model.WriteOp(s.varFor(cellPtr(pointer{obj: o}, c)), e), pos, Origin{})
		}
		return at
	}
	if !inLoop(fr, b) {
		if o.owner >= 0 {
			return cur // private so far: its payload is the value's
		}
		return fill(o, cur)
	}
	// A new box on every execution: the next of a pool (allocPool).
	objs := s.poolObjects(o, p.idx, pos)
	if o.owner >= 0 {
		return cur
	}
	name := o.name
	r := p.newReg(name, types.NewInterfaceType(nil, nil).Complete())
	join := p.pickFromPool(objs, r, name, pos, cur, fill)
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: in.Type()}
	return join
}

// valueBoxID returns the heap id of a value box, giving it one (an array
// too: its cells are the box's).
func (s *system) valueBoxID(o *object, pos token.Pos) int64 {
	s.shareObject(o, pos)
	return int64(s.heap.ids[o])
}

// boxRegs makes the registers a box of type t is read into, named after
// name, and returns them with the value they make up.
func (p *proc) boxRegs(t types.Type, cells []cell, name string) ([]int, value) {
	s := p.s
	regs := make([]int, len(cells))
	agg := map[string]value{}
	for i, c := range cells {
		rt := c.typ
		if isFuncCell(rt) || isChanCell(rt) {
			rt = types.Typ[types.Int] // an index or an identity
		}
		regs[i] = p.newReg(name+c.name, rt)
		agg[c.key] = s.cellValue(c.typ, model.R(regs[i]))
	}
	if !isAggregate(t) {
		return regs, agg[""]
	}
	return regs, value{kind: vAgg, agg: agg}
}

// readBox reads the cells of box o into regs, from cur.
func (p *proc) readBox(o *object, cells []cell, regs []int, pos token.Pos, cur int) int {
	for i, c := range cells {
		cur = p.emit(cur, model.ReadOp(p.s.varFor(cellPtr(pointer{obj: o}, c)), regs[i]), pos, Origin{})
	}
	return cur
}

// typeAssertBox lowers a type assertion to a struct, array, function or
// channel type on an interface value known only at run time: the payload
// is read from the box its id names.
func (p *proc) typeAssertBox(fr *frame, in *ssa.TypeAssert, x value, cur int) int {
	s := p.s
	pos, at := in.Pos(), in.AssertedType
	var match []*object
	for _, o := range x.objs {
		if o.byValue && types.Identical(o.typ, at) {
			match = append(match, o)
		}
	}
	if len(match) > maxCases {
		s.unsupported(pos, "a type assertion on an interface value that may hold more than %d values", maxCases)
	}
	ok := s.anyOf(x.e, match, pos)
	cells := s.boxCells(at, pos)
	regs, res := p.boxRegs(at, cells, p.regName(fr, in))
	join := p.newLoc(pos)
	for _, o := range match {
		g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(s.idOf(o, pos)))), pos, Origin{})
		p.emitTo(p.readBox(o, cells, regs, pos, g), model.NopOp(), join, pos, Origin{})
	}
	fail := p.emit(cur, model.GuardOp(negate(ok)), pos, Origin{})
	if !in.CommaOk {
		name := fmt.Sprintf("interface conversion: interface is not %s", types.TypeString(at, types.RelativeTo(s.x.pkg)))
		p.panicAt(panicSite{loc: fail, name: name, pos: pos})
		fr.vals[in] = res
		return join
	}
	for _, r := range regs {
		fail = p.emit(fail, model.AssignOp(r, model.C(0)), pos, Origin{})
	}
	p.emitTo(fail, model.NopOp(), join, pos, Origin{})
	fr.vals[in] = value{kind: vTuple, tup: []value{res, intVal(ok)}}
	return join
}

// boxReceiver reads, after the guard at cur, the payload of box o as the
// receiver of a method call.
func (p *proc) boxReceiver(o *object, pos token.Pos, cur int) (value, int) {
	cells := p.s.boxCells(o.typ, pos)
	regs, v := p.boxRegs(o.typ, cells, o.name)
	return v, p.readBox(o, cells, regs, pos, cur)
}

// mayHoldValueBox reports whether the interface value v may be a value
// box.
func mayHoldValueBox(v value) bool {
	switch v.kind {
	case vIface:
		return v.box != nil || byValueType(v.typ)
	case vRef:
		for _, o := range v.objs {
			if o.byValue {
				return true
			}
		}
	}
	return false
}

// refuseBoxCompare refuses comparing x and y when both may be value boxes
// of one dynamic type: Go compares their payloads. A box and a value of
// another dynamic type (a sentinel error beside a struct error) differ in
// Go as their identities do in the model.
func (s *system) refuseBoxCompare(x, y value, pos token.Pos) {
	if x.kind == vNil || y.kind == vNil || !mayHoldValueBox(x) && !mayHoldValueBox(y) {
		return
	}
	xs, xok := boxTypes(x)
	ys, yok := boxTypes(y)
	share := !xok && len(ys) > 0 || !yok && len(xs) > 0
	for _, t := range xs {
		share = share || slices.ContainsFunc(ys, func(u types.Type) bool { return types.Identical(t, u) })
	}
	if share {
		s.unsupported(pos, "comparing interface values that may hold a struct, an array, a function or a channel (Go compares their payloads, fencecheck their boxes)")
	}
}

// boxTypes returns the dynamic types of the value boxes v may hold, and
// false when what v may hold is not known.
func boxTypes(v value) ([]types.Type, bool) {
	switch v.kind {
	case vIface:
		if v.box != nil || byValueType(v.typ) {
			return []types.Type{v.typ}, true
		}
		return nil, true
	case vRef:
		var out []types.Type
		for _, o := range v.objs {
			if o.byValue {
				out = append(out, o.typ)
			}
		}
		return out, true
	}
	return nil, false
}
