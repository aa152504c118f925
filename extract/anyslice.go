package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Interface values holding slices.
//
// A slice the model keeps is a window onto a backing array fixed once it
// is made (slices.go): the array and the window's offset, length and
// capacity are known where the slice is converted to an interface. Such a
// payload has a box per window, as a constant has (ifacecells.go): the
// box's value packs the array's allocation index with the three numbers
// (sliceBoxVal), so that the next round of lowering finds the same array.
// A goroutine's own array boxed this way is shared from its make (another
// round), as an object whose address escapes: the elements it writes
// before publishing the slice, and after, are shared cells.
//
// A type assertion (a type switch case) to a slice type gives back the
// window of the box of that type the interface value may hold; of
// several, a window of their one offset, length and capacity over an array
// chosen at run time (a pointer with a dynamic object, pointers.go).
// Windows of different shapes behind one assertion are refused: the rest
// of the goroutine would need a length chosen at run time. A comma-ok
// assertion's slice must be used only where ok holds: the model has no
// nil slice to give on the other path. A slice grown by
// append in a goroutine (its length and array are the goroutine's), a
// window onto an array inside another object, and one chosen at run time
// are refused where they are stored.
//
// Go panics when it compares two interface values holding slices of one
// type, hashes one as a map key, or compares one in an atomic.Value's
// compare-and-swap: those are refused, while a comparison with nil or with
// a value of another dynamic type is a comparison of heap ids, as for any
// payload.

// sliceBoxBits is the width of each of the offset, length and capacity in
// the value of a slice's box (maxSliceCap < 1<<sliceBoxBits), and
// maxSliceBoxArrays bounds the allocation index of its array.
const (
	sliceBoxBits      = 17
	maxSliceBoxArrays = 1<<(63-3*sliceBoxBits) - 1
)

// isSliceType reports whether t is a slice type.
func isSliceType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// sliceBoxVal returns the value of the box of the slice payload pl of an
// interface value of dynamic type t: 0 for a nil slice.
func (s *system) sliceBoxVal(t types.Type, pl value, pos token.Pos) int64 {
	switch pl.kind {
	case vNil:
		return 0
	case vSlice:
	default:
		s.unsupported(pos, "an interface value holding %s of type %s, stored in memory, merged or compared", describe(pl), t)
	}
	switch {
	case pl.sl.grown || pl.sl.dlen != nil:
		s.unsupported(pos, "an interface value holding a %s grown by append, stored in memory, merged or compared (its array and length are the goroutine's)", t)
	case pl.ptr.ref != nil || len(pl.ptr.path) != 0:
		s.unsupported(pos, "an interface value holding a %s over an array inside another object or chosen at run time, stored in memory, merged or compared (a box holds a slice of an array of its own)", t)
	case pl.ptr.obj.loopMade:
		s.unsupported(pos, "an interface value holding a %s made in a loop of a goroutine, stored in memory, merged or compared (Go makes a new array on each iteration, fencecheck keeps one per make)", t)
	case pl.ptr.obj.id < 0 || pl.ptr.obj.id >= maxSliceBoxArrays:
		s.unsupported(pos, "an interface value holding a %s over an array the model does not allocate, stored in memory, merged or compared", t)
	}
	arr := pl.ptr.obj
	if arr.owner >= 0 {
		s.shareObject(arr, pos) // its elements are shared from its make on
	}
	v := (int64(arr.id)+1)<<(3*sliceBoxBits) | pl.sl.off<<(2*sliceBoxBits) | pl.sl.len<<sliceBoxBits | pl.sl.cap
	if s.heap.liveSlices == nil {
		s.heap.liveSlices = map[string]bool{}
	}
	s.heap.liveSlices[boxKey(t, v)] = true
	return v
}

// liveSliceBox reports whether o, a box of a slice, is made by a
// conversion of this round or of the previous one. A box names its array
// by its allocation index, which a round that allocates another object
// first shifts: the box of an earlier round then names another array, and
// no conversion makes it any more (a round whose conversions differ from
// the previous round's asks for another, so that the last round's boxes
// are exactly those its conversions make).
func (s *system) liveSliceBox(o *object) bool {
	k := boxKey(o.typ, o.boxVal)
	return o.boxVal == 0 || s.heap.liveSlices[k] || s.heap.hint.liveSlices[k]
}

// sliceOfBox returns the slice the box o of a slice holds.
func (s *system) sliceOfBox(o *object) value {
	if o.boxVal == 0 {
		return value{kind: vNil}
	}
	mask := int64(1)<<sliceBoxBits - 1
	id := int(o.boxVal>>(3*sliceBoxBits)) - 1
	off, n, c := o.boxVal>>(2*sliceBoxBits)&mask, o.boxVal>>sliceBoxBits&mask, o.boxVal&mask
	var arr *object
	if arr = s.byID[id]; arr == nil {
		arr = s.heap.pending[id]
	}
	var a *types.Array
	if arr != nil {
		a, _ = arr.typ.Underlying().(*types.Array)
	}
	if a == nil || !types.Identical(a.Elem(), s.sliceElem(o.typ, token.NoPos)) || a.Len() < off+c {
		if s.liveSliceBox(o) {
			// Not allocated yet in this round (a goroutine lowered later
			// makes it): the next round has it.
			s.heapChange("a slice in an interface value names an array not allocated yet")
		}
		return opaque(fmt.Sprintf("the slice in %s, whose array is not allocated yet", o.name))
	}
	return sliceVal(pointer{obj: arr}, off, n, c)
}

// sliceBoxName names the box of a slice: any(buf[0:2]), any([]int(nil)).
func (s *system) sliceBoxName(t types.Type, ts string, v int64) string {
	if v == 0 {
		return fmt.Sprintf("any(%s(nil))", ts)
	}
	sl := s.sliceOfBox(&object{typ: t, boxVal: v})
	if sl.kind != vSlice {
		return fmt.Sprintf("any(%s)", ts)
	}
	arr := sl.ptr.obj
	name := arr.name
	if h := arr.holder; arr.anon && h != nil {
		// Named after the variable or cell that holds it, as display does.
		name = h.obj.name
		if len(h.path) != 0 {
			name = h.name()
		}
	}
	if name == "" {
		name = ts + "{…}"
	}
	return fmt.Sprintf("any(%s[%d:%d])", name, sl.sl.off, sl.sl.off+sl.sl.len)
}

// sliceTypes returns the slice and map types an interface value v may
// hold (Go cannot compare them).
func (s *system) sliceTypes(v value) []types.Type {
	switch v.kind {
	case vIface:
		if isSliceType(v.typ) || isMap(v.typ) {
			return []types.Type{v.typ}
		}
	case vRef:
		var ts []types.Type
		for _, o := range v.objs {
			if o.box && isSliceType(o.typ) && s.liveSliceBox(o) || isMapBox(o) {
				ts = append(ts, o.typ)
			}
		}
		return ts
	}
	return nil
}

// refuseSliceCompare refuses comparing x and y when both may hold slices
// of one type: Go panics.
func (s *system) refuseSliceCompare(x, y value, pos token.Pos) {
	for _, t := range s.sliceTypes(x) {
		if slices.ContainsFunc(s.sliceTypes(y), func(u types.Type) bool { return types.Identical(t, u) }) {
			s.unsupported(pos, "comparing interface values that may both hold a %s (Go panics: comparing uncomparable type %s)", t, t)
		}
	}
}

// slicesOfBoxes returns the slice that the interface value of heap id e
// holds when it is one of the boxes of slices match: a slice over an
// array chosen at run time when there are several, all of one window of
// arrays of one type.
func (s *system) slicesOfBoxes(e model.Expr, match []*object, at types.Type, pos token.Pos) value {
	first := s.sliceOfBox(match[0])
	if len(match) == 1 || first.kind != vSlice {
		return first
	}
	var arrs []*object
	var sum model.Expr
	for _, o := range match {
		sl := s.sliceOfBox(o)
		if sl.kind != vSlice {
			return sl
		}
		if sl.sl != first.sl || !types.Identical(sl.ptr.obj.typ, first.ptr.obj.typ) {
			s.unsupported(pos, "a type assertion to %s on an interface value that may hold slices of different windows or arrays (%s and %s): the rest of the goroutine would need their length chosen at run time", at, match[0].name, o.name)
		}
		arr := sl.ptr.obj
		s.shareObject(arr, pos)
		arrs = append(arrs, arr)
		term := model.Bin(model.OpMul, model.Bin(model.OpEq, e, model.C(s.idOf(o, pos))), model.C(int64(s.heap.ids[arr])))
		sum = orElseAdd(sum, term)
	}
	ptr := pointer{obj: first.ptr.obj, ref: &dynObj{e: sum, objs: arrs, typ: first.ptr.obj.typ}}
	return value{kind: vSlice, ptr: ptr, sl: first.sl}
}

// orElseAdd is a + b, or b when a is nil.
func orElseAdd(a, b model.Expr) model.Expr {
	if a == nil {
		return b
	}
	return model.Bin(model.OpAdd, a, b)
}

// typeAssertSlice lowers a type assertion to a slice type on an interface
// value known only at run time: the window of the boxes of that type it
// may hold (slicesOfBoxes).
func (p *proc) typeAssertSlice(fr *frame, in *ssa.TypeAssert, x value, cur int) int {
	s := p.s
	pos, at := in.Pos(), in.AssertedType
	var match []*object
	for _, o := range x.objs {
		if o.box && types.Identical(o.typ, at) && s.liveSliceBox(o) {
			match = append(match, o)
		}
	}
	res := value{kind: vNil}
	if len(match) > 0 {
		res = s.slicesOfBoxes(x.e, match, at, pos)
	}
	ok := s.anyOf(x.e, match, pos)
	join := p.newLoc(pos)
	p.emitTo(cur, model.GuardOp(ok), join, pos, Origin{})
	fail := p.emit(cur, model.GuardOp(negate(ok)), pos, Origin{})
	if !in.CommaOk {
		name := fmt.Sprintf("interface conversion: interface is not %s", types.TypeString(at, types.RelativeTo(s.x.pkg)))
		p.panicAt(panicSite{loc: fail, name: name, pos: pos})
		fr.vals[in] = res
		return join
	}
	if len(match) > 0 && !okGuarded(in) {
		// On the other path the slice is nil, which res is not.
		s.unsupported(pos, "a comma-ok type assertion to %s whose slice is used where ok may be false (test ok before using it)", at)
	}
	p.emitTo(fail, model.NopOp(), join, pos, Origin{})
	fr.vals[in] = value{kind: vTuple, tup: []value{res, intVal(ok)}}
	return join
}

// okGuarded reports whether the value of the comma-ok assertion in is used
// only where its ok is true: in blocks the true branch of an if on ok
// dominates.
func okGuarded(in *ssa.TypeAssert) bool {
	var val, ok *ssa.Extract
	for _, r := range *in.Referrers() {
		e, isExtract := r.(*ssa.Extract)
		_, isDebug := r.(*ssa.DebugRef)
		switch {
		case isDebug:
		case !isExtract:
			return false
		case e.Index == 0:
			val = e
		default:
			ok = e
		}
	}
	if val == nil || !usedBeyondDebug(val) {
		return true
	}
	if ok == nil {
		return false
	}
	var then *ssa.BasicBlock
	for _, r := range *ok.Referrers() {
		if iff, isIf := r.(*ssa.If); isIf && iff.Cond == ok {
			then = iff.Block().Succs[0]
		}
	}
	if then == nil || len(then.Preds) != 1 {
		return false
	}
	for _, r := range *val.Referrers() {
		if _, isDebug := r.(*ssa.DebugRef); !isDebug && !then.Dominates(r.Block()) {
			return false
		}
	}
	return true
}

// usedBeyondDebug reports whether v has a referrer other than a DebugRef.
func usedBeyondDebug(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		if _, isDebug := r.(*ssa.DebugRef); !isDebug {
			return true
		}
	}
	return false
}

// sliceBoxesExpr returns the heap id of the box of pl, a window over an
// array chosen at run time (one of an allocation's in a loop), converted to
// an interface value of dynamic type t: a box per array, chosen as the
// array is.
func (s *system) sliceBoxesExpr(t types.Type, pl value, pos token.Pos) model.Expr {
	var sum model.Expr
	for _, arr := range pl.ptr.ref.objs {
		one := pl
		one.ptr = pointer{obj: arr}
		box := s.boxID(t, s.sliceBoxVal(t, one, pos))
		sum = orElseAdd(sum, model.Bin(model.OpMul, model.Bin(model.OpEq, pl.ptr.ref.e, model.C(s.idOf(arr, pos))), model.C(box)))
	}
	return sum
}
