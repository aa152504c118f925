package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Slice headers in shared memory.
//
// A slice cell of the shared state (a struct field, a variable, an element
// of type []T) that the set-up alone stores holds the set-up's window, a
// constant (slices.go). One that a goroutine stores to is a shared
// variable holding the header as a word: 0 for nil, else
// shape<<sliceWordBits | len, where a shape is an array, an offset and a
// capacity (sliceShape), numbered per system, and len the window's length.
// A store of a header is a write of its word and a load is a read, so a
// store that races with another access of the cell is a race on the cell
// (the field, as Go's race detector reports it); the elements stay the
// cells of their array.
//
// A load gives a window whose length is known only at run time: the word
// modulo 1<<sliceWordBits, nil when the word is 0. An index is checked
// against it; append to it with room stores at that index (a case split
// over the first windowCases lengths, a run-time refusal beyond), and
// beyond the capacity is a run-time refusal, as the array append would
// move the elements to is the runtime's choice. The shapes a cell may hold
// are those stored to it (and its set-up value), known once the whole
// system is lowered: a new one asks for another round (heapHint.cells).
// A load that may give windows of several offsets or capacities gives
// those of the first (the set-up's, when it left one there), and one of
// another is a run-time refusal: a resize that a run never takes (a
// queue's buffer doubled once full) does not refuse the system.
//
// A slice the model does not compute (the []byte of debug.Stack(), the
// []uintptr of runtime.Callers) has a shape of its own with no array: loaded back it is that value again (string(b) is any
// string, b != nil is the word's test), and anything that looks inside it
// is refused where a run reaches it.
//
// An array a goroutine makes becomes shared from its make when a slice of
// it is stored (another round, as for interface values). go/ssa allocates
// make([]T, n) of a constant n as an array: in a loop, one of three, as
// any allocation in a loop (sliceArrayRef), and the word of a slice of it
// is chosen as its array is. A make of run-time size in a loop is refused
// where its slice is stored: the model keeps one array per make, and Go
// makes a new one each time. A slice a goroutine grows by append is stored
// when no append to it can follow (storeGrown), its array then shared.
//
// A load from a cell that holds windows of one offset and capacity over
// several arrays gives a window over an array chosen at run time (a
// pointer with a dynamic object, as for interface values of slices).
//
// Append to a slice grown by append loaded from memory has Go's two
// outcomes, room or growth, as runs of the model (appendGrownLoaded):
// growth copies the old elements into an array of the append's own, one
// per run of it, or one of maxPool in a loop. A slice grown and stored in
// a loop (refused where a run reaches the store) still tells the next
// round that the cell holds grown slices, so that the loads of a
// goroutine appending to the cell in a loop get there. The set-up's empty
// window without room in such a cell (make([]T, 0), []T{}) is a grown
// slice of length 0 with no room (sliceHdr.empty): its word stays its
// own shape's, it is not nil, and an append to it always grows.

// sliceWordBits is the width of the length in a header's word.
const sliceWordBits = sliceBoxBits

// The word of a slice grown by append may say more than its shape and
// length: where its window starts in the array, known only at run time
// (sliceHdr.doff: a queue's q.items[1:]), and by how much Go's capacity
// exceeds the length at least (the slack: s[:1] of a slice of two has
// room for one more, whatever the runtime chose). Such a word is
// off<<sliceOffShift | slack<<sliceSlackShift | shape<<sliceWordBits | len,
// and the cells that may hold one carry the extendedMark shape among
// theirs.
const (
	sliceShapeBits  = 15
	sliceSlackShift = sliceWordBits + sliceShapeBits
	sliceOffShift   = sliceSlackShift + 16
)

// extendedMark is the shape a cell holds when a word stored to it may
// carry an offset or a slack: its loads decode them.
var extendedMark = sliceShape{arr: -2}

// windowCases bounds the lengths an append to a window of run-time length
// stores at by a case split: a longer window is a run-time refusal there.
const windowCases = 16

// sliceShape is the array, offset and capacity of the windows a header
// cell may hold. arr is the allocation index of the array, -1 for a []byte
// the model does not compute.
type sliceShape struct {
	arr      int
	off, cap int64
	grown    bool
}

// uncomputedShape is the shape of a slice the model does not compute (a
// []byte of debug.Stack, the program counters of runtime.Callers).
var uncomputedShape = sliceShape{arr: -1}

// shapeIndex returns the number (from 1) of shape sh stored into the cell
// key, recording both; a shape or a cell's shape the hint did not have
// asks for another round.
func (s *system) shapeIndex(sh sliceShape, key string) int64 {
	k := slices.Index(s.heap.shapes, sh)
	if k < 0 {
		s.heap.shapes = append(s.heap.shapes, sh)
		k = len(s.heap.shapes) - 1
	}
	if s.heap.cells == nil {
		s.heap.cells = map[string][]int{}
	}
	if !slices.Contains(s.heap.cells[key], k) {
		s.heap.cells[key] = append(s.heap.cells[key], k)
	}
	if !slices.Contains(s.heap.hint.cells[key], k) {
		s.heapChange("a slice of a new shape is stored in memory")
	}
	if k+1 >= 1<<sliceShapeBits {
		s.unsupported(token.NoPos, "more than %d shapes of slices stored in memory", 1<<sliceShapeBits-1)
	}
	return int64(k+1) << sliceWordBits
}

// sliceWord returns the word of the header of v, a value of slice type t,
// stored into the cell key.
func (s *system) sliceWord(v value, t types.Type, key string, pos token.Pos) model.Expr {
	switch v.kind {
	case vNil:
		return model.C(0)
	case vOpaque:
		if v.uncomputed {
			return model.C(s.shapeIndex(uncomputedShape, key))
		}
		s.unsupported(pos, "storing %s in memory", v.why)
	case vSlice:
	default:
		s.unsupported(pos, "storing %s as a slice in memory", describe(v))
	}
	arrs := []*object{v.ptr.obj}
	if v.ptr.ref != nil {
		arrs = v.ptr.ref.objs // an array of a pool (sliceArrayRef)
	}
	switch {
	case len(v.ptr.path) != 0:
		s.unsupported(pos, "storing in memory a slice over an array inside another object (a header in memory names an array of its own)")
	case v.sl.dcap != nil && v.sl.caps == nil:
		s.unsupported(pos, "storing in memory a slice whose capacity is known only at run time (a make whose size takes several values)")
	}
	var base model.Expr
	for _, arr := range arrs {
		switch {
		case arr.loopMade && arr.owner >= 0 && arr.id >= 0:
			// The next round makes it one of maxPool arrays, shared from
			// its make.
			s.shareObject(arr, pos)
		case arr.loopMade:
			s.unsupported(pos, "storing in memory a slice made in a loop of a goroutine (Go makes a new array on each iteration, fencecheck keeps one per make)")
		case arr.id < 0:
			s.unsupported(pos, "storing in memory a slice over an array the model does not allocate")
		}
		if arr.owner >= 0 {
			s.shareObject(arr, pos) // its elements are shared from its make on
		}
		k := model.Expr(model.C(s.shapeIndex(sliceShape{arr: arr.id, off: v.sl.off, cap: v.sl.cap, grown: v.sl.grown}, key)))
		if v.sl.dcap != nil {
			// A make of a few sizes: a shape per capacity, chosen by the
			// capacity the run made.
			k = nil
			for _, c := range *v.sl.caps {
				one := model.C(s.shapeIndex(sliceShape{arr: arr.id, off: v.sl.off, cap: c, grown: v.sl.grown}, key))
				k = orElseAdd(k, model.Bin(model.OpMul, model.Bin(model.OpEq, v.sl.dcap, model.C(c)), one))
			}
		}
		if v.ptr.ref != nil {
			k = model.Bin(model.OpMul, model.Bin(model.OpEq, v.ptr.ref.e, model.C(s.idOf(arr, pos))), k)
		}
		base = orElseAdd(base, k)
	}
	if c, ok := base.(model.Const); ok && v.sl.dlen == nil {
		return model.C(c.Value + v.sl.len)
	}
	n := v.sl.dlen
	if n == nil {
		n = model.C(v.sl.len)
	}
	if v.sl.doff != nil || v.sl.minCap != nil {
		// The offset and the slack go above the shape (a nil slice's
		// are 0).
		s.shapeIndex(extendedMark, key)
		if v.sl.doff != nil {
			base = model.Bin(model.OpAdd, base, model.Bin(model.OpMul, v.sl.doff, model.C(1<<sliceOffShift)))
		}
		if v.sl.minCap != nil {
			slack := model.Bin(model.OpSub, v.sl.minCap, n)
			base = model.Bin(model.OpAdd, base, model.Bin(model.OpMul, slack, model.C(1<<sliceSlackShift)))
		}
	}
	if v.sl.null != nil {
		// nil stays 0 (its length is 0 too).
		base = model.Bin(model.OpMul, model.Not(v.sl.null), base)
	}
	word := model.Expr(model.Bin(model.OpAdd, base, n))
	if v.sl.empty != nil {
		// The set-up's empty window stays its word (its length is 0).
		empty := model.C(s.shapeIndex(v.sl.emptyShape, key))
		word = model.Bin(model.OpAdd, model.Bin(model.OpMul, v.sl.empty, empty), model.Bin(model.OpMul, model.Not(v.sl.empty), word))
	}
	return word
}

// emptyWindow reports whether x is a window without room holding no
// element, of an array of fixed size (make([]T, 0), []T{}): not nil, yet
// any append to it moves to a new array, as one to nil does.
func emptyWindow(x value) bool {
	return x.kind == vSlice && !x.sl.grown && x.sl.dlen == nil && x.sl.dcap == nil && x.sl.doff == nil &&
		x.sl.null == nil && x.sl.len == 0 && x.sl.cap == 0 && len(x.ptr.path) == 0 && x.ptr.ref == nil
}

// isEmptyShape reports whether sh is the shape of an empty window without
// room (emptyWindow).
func isEmptyShape(sh sliceShape) bool {
	return sh.arr >= 0 && !sh.grown && sh.cap == 0
}

// sliceFromWord returns the slice of type t whose header's word is e, read
// from the cells keys, and when the cells hold other shapes too, the
// condition that e is of one of them (other).
func (s *system) sliceFromWord(e model.Expr, t types.Type, keys []string, pos token.Pos) (v value, other model.Expr) {
	var shapes []int
	extended := false
	for _, k := range keys {
		for _, i := range s.heap.hint.cells[k] {
			if i >= len(s.heap.hint.shapes) {
				continue
			}
			if s.heap.hint.shapes[i] == extendedMark {
				extended = true
				continue
			}
			if !slices.Contains(shapes, i) {
				shapes = append(shapes, i)
			}
		}
	}
	slices.Sort(shapes)
	if len(shapes) == 0 {
		return value{kind: vNil}, nil
	}
	shape := model.Bin(model.OpDiv, e, model.C(1<<sliceWordBits)) // its number + 1, 0 for nil
	if extended {
		shape = model.Bin(model.OpMod, shape, model.C(1<<sliceShapeBits))
	}
	// The set-up's empty windows beside slices grown by append (a field
	// made with make([]T, 0) that goroutines append to) are grown slices
	// of length 0 that have no room.
	var empty model.Expr
	emptyShape := sliceShape{}
	if slices.ContainsFunc(shapes, func(i int) bool { return s.heap.hint.shapes[i].grown && s.heap.hint.shapes[i].arr >= 0 }) {
		shapes = slices.DeleteFunc(shapes, func(i int) bool {
			if !isEmptyShape(s.heap.hint.shapes[i]) {
				return false
			}
			if empty == nil {
				emptyShape = s.heap.hint.shapes[i]
			}
			empty = orElse(empty, model.Bin(model.OpEq, shape, model.C(int64(i+1))))
			return true
		})
	}
	first := s.heap.hint.shapes[shapes[0]]
	if first.arr < 0 {
		if len(shapes) > 1 {
			other = model.Bin(model.OpGt, shape, model.C(int64(shapes[0]+1)))
		}
		v = opaque(fmt.Sprintf("a %s that fencecheck does not compute (debug.Stack(), say), loaded from memory", t))
		v.uncomputed, v.e = true, model.Bin(model.OpNe, e, model.C(0))
		return v, other
	}
	// The shapes of one window over arrays of one type: the array is
	// chosen at run time.
	var arrs []*object
	var id, in model.Expr
	// Windows of one offset over arrays of one type whose capacities
	// differ (a make of a few sizes) give the capacity at run time.
	var dcap model.Expr
	maxCap, varied := first.cap, false
	for _, i := range shapes {
		sh := s.heap.hint.shapes[i]
		if sh.arr < 0 || sh.off != first.off || sh.grown != first.grown || sh.cap != first.cap && sh.grown {
			continue
		}
		arr, made := s.byID[sh.arr], true
		if arr == nil {
			arr, made = s.heap.pending[sh.arr], false // reserved for a goroutine lowered later
		}
		a, _ := typeArray(arr)
		stale := arr == nil || made && (a == nil || !types.Identical(a.Elem(), s.sliceElem(t, pos)) || a.Len() < sh.off+sh.cap)
		if stale {
			// The array of a shape an earlier round stored, which this
			// round's allocations no longer have (they moved): no store
			// of this round gives it.
			continue
		}
		if made && a != nil && len(arrs) > 0 && !types.Identical(arr.typ, arrs[0].typ) && len(s.heap.hint.makeSized()) > 0 {
			// Arrays of several lengths, made by makes that the inference
			// sized (a queue's resize, make([]T, 2*n)): the next rounds
			// leave those makes unsized, run-time refusals where reached.
			s.sizedMixed = true
			s.heapChange("a slice in memory names arrays of several lengths")
			return opaque("a slice in memory over arrays of several lengths"), nil
		}
		if a == nil || !types.Identical(a.Elem(), s.sliceElem(t, pos)) || a.Len() < sh.off+sh.cap || len(arrs) > 0 && !types.Identical(arr.typ, arrs[0].typ) {
			// Not allocated yet in this round (a goroutine lowered later
			// makes it): the next round has it.
			s.heapChange("a slice in memory names an array not allocated yet")
			return opaque("a slice in memory whose array is not allocated yet"), nil
		}
		is := model.Bin(model.OpEq, shape, model.C(int64(i+1)))
		in = orElse(in, is)
		dcap = orElseAdd(dcap, model.Bin(model.OpMul, is, model.C(sh.cap)))
		maxCap = max(maxCap, sh.cap)
		varied = varied || sh.cap != first.cap
		if len(shapes) > 1 {
			s.shareObject(arr, pos)
			id = orElseAdd(id, model.Bin(model.OpMul, is, model.C(int64(s.heap.ids[arr]))))
		}
		arrs = append(arrs, arr)
	}
	if len(arrs) == 0 {
		return value{kind: vNil}, model.Bin(model.OpNe, e, model.C(0))
	}
	if len(arrs) < len(shapes) {
		other = model.Not(model.Bin(model.OpOr, model.Bin(model.OpEq, e, model.C(0)), in))
	}
	ptr := pointer{obj: arrs[0]}
	if len(shapes) > 1 {
		ptr.ref = &dynObj{e: id, objs: arrs, typ: arrs[0].typ}
	}
	v = sliceVal(ptr, first.off, 0, maxCap)
	v.sl.grown = first.grown
	if varied {
		v.sl.dcap = dcap
	}
	v.sl.dlen = model.Bin(model.OpMod, e, model.C(1<<sliceWordBits))
	v.sl.null, v.sl.fromMem = model.Bin(model.OpEq, e, model.C(0)), true
	if empty != nil {
		v.sl.empty, v.sl.emptyShape = empty, emptyShape
	}
	if extended && first.grown {
		v.sl.doff = model.Bin(model.OpDiv, e, model.C(1<<sliceOffShift))
		slack := model.Bin(model.OpMod, model.Bin(model.OpDiv, e, model.C(1<<sliceSlackShift)), model.C(1<<(sliceOffShift-sliceSlackShift)))
		v.sl.minCap = model.Bin(model.OpAdd, v.sl.dlen, slack)
	}
	return v, other
}

// sliceToRunTime lowers x[lo:hi] in a goroutine for x, a slice of fixed
// window (made with a known size, the set-up's), lo a constant and hi known
// only at run time (buf[:n] after n := copy(buf, src)): a window of the
// same array whose length is known at run time, as a slice loaded from
// memory has. hi below lo or past the capacity panics, as in Go. ok is
// false for other slice expressions.
func (p *proc) sliceToRunTime(fr *frame, in *ssa.Slice, cur int) (int, bool) {
	s := p.s
	x := s.get(fr, in.X)
	if x.kind != vSlice || x.sl.grown || x.sl.dlen != nil || x.sl.dcap != nil || x.sl.doff != nil || in.Max != nil || in.High == nil {
		return cur, false
	}
	lo := int64(0)
	if in.Low != nil {
		c, ok := s.get(fr, in.Low).constant()
		if !ok {
			return cur, false
		}
		lo = c
	}
	hv := s.get(fr, in.High)
	if _, ok := hv.constant(); ok || hv.kind != vInt || lo < 0 || lo > x.sl.cap {
		return cur, false
	}
	pos := in.Pos()
	hi := hv.e
	bad := model.Bin(model.OpOr, model.Bin(model.OpLt, hi, model.C(lo)), model.Bin(model.OpGt, hi, model.C(x.sl.cap)))
	p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(bad), pos, Origin{}), name: "slice bounds out of range", pos: pos})
	cur = p.emit(cur, model.GuardOp(model.Not(bad)), pos, Origin{})
	v := sliceVal(x.ptr, x.sl.off+lo, 0, x.sl.cap-lo)
	v.sl.dlen = model.Bin(model.OpSub, hi, model.C(lo))
	fr.vals[in] = v
	return cur, true
}

// sliceLoadedGrown lowers x[lo:hi] in a goroutine for x, a slice grown by
// append loaded from memory (a queue's q.items[1:], a removal's s[:i]): a
// window over the same array from a run-time offset (sliceHdr.doff), as
// Go's slicing shares the array. A bound beyond the least capacity Go's
// slice has (its length, or more for one that was longer: minCap) depends
// on the capacity, the runtime's choice: a run-time refusal. lo < 0 or
// lo > hi panics, as in Go.
func (p *proc) sliceLoadedGrown(fr *frame, in *ssa.Slice, x value, cur int) int {
	s := p.s
	pos := in.Pos()
	if in.Max != nil {
		return p.refuseAt(cur, "a three-index slice of a slice grown by append (its capacity is the runtime's choice)", pos)
	}
	lo, hi := model.Expr(model.C(0)), x.sl.dlen
	if in.Low != nil {
		lo = s.asInt(s.get(fr, in.Low), pos)
	}
	if in.High != nil {
		hi = s.asInt(s.get(fr, in.High), pos)
	}
	least := x.sl.dlen // Go's capacity is at least the length
	if x.sl.minCap != nil {
		least = x.sl.minCap
	}
	beyond := model.Bin(model.OpGt, hi, least)
	within := model.Not(beyond)
	if x.sl.empty != nil {
		// The set-up's empty window has no capacity: Go's panic.
		p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, beyond, x.sl.empty)), pos, Origin{}), name: "slice bounds out of range", pos: pos})
		beyond = model.Bin(model.OpAnd, beyond, model.Not(x.sl.empty))
	}
	p.refuseAt(p.emit(cur, model.GuardOp(beyond), pos, Origin{}), "slicing a slice grown by append beyond its length (its capacity is the runtime's choice)", pos)
	bad := model.Bin(model.OpOr, model.Bin(model.OpLt, lo, model.C(0)), model.Bin(model.OpGt, lo, hi))
	p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, within, bad)), pos, Origin{}), name: "slice bounds out of range", pos: pos})
	cur = p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, within, model.Not(bad))), pos, Origin{})
	v := x
	v.sl.dlen = model.Bin(model.OpSub, hi, lo)
	v.sl.minCap = model.Bin(model.OpSub, least, lo)
	if c, ok := lo.(model.Const); !ok || c.Value != 0 || x.sl.doff != nil {
		v.sl.doff = lo
		if x.sl.doff != nil {
			v.sl.doff = model.Bin(model.OpAdd, x.sl.doff, lo)
		}
	}
	fr.vals[in] = v
	return cur
}

// typeArray returns the array type of o, nil when o is nil or no array.
func typeArray(o *object) (*types.Array, bool) {
	if o == nil {
		return nil, false
	}
	a, ok := o.typ.Underlying().(*types.Array)
	return a, ok
}

// sliceCellWritten reports whether a load of the slice cell q reads a
// shared variable (a goroutine stores to it) rather than the set-up's value.
func (s *system) sliceCellWritten(q pointer, pos token.Pos) bool {
	return q.obj.owner < 0 && (q.dynamic() || s.ptrCellShared(q, pos))
}

// loadSliceCell lowers a load of the slice cell q of type t in memory of
// the shared state into a register named name.
func (p *proc) loadSliceCell(q pointer, t types.Type, name string, pos token.Pos, o Origin, cur int) (value, int) {
	s := p.s
	if !s.sliceCellWritten(q, pos) {
		return p.scalarFromSetup(q, "a slice"), cur
	}
	r := p.newReg(name, types.Typ[types.Int])
	var keys []string
	cur = p.access(cur, q, pos, o, func(c pointer) []model.Op {
		keys = append(keys, c.key())
		return []model.Op{model.ReadOp(s.varFor(c), r)}
	})
	v, other := s.sliceFromWord(model.R(r), t, keys, pos)
	if other != nil {
		p.refuseAt(p.emit(cur, model.GuardOp(other), pos, Origin{}), "a slice loaded from memory that holds another array or window than the first stored there (fencecheck keeps one per load)", pos)
		cur = p.emit(cur, model.GuardOp(model.Not(other)), pos, Origin{})
	}
	return v, cur
}

// storeSliceCell lowers a store of the slice val into the slice cell ptr
// of type t of the shared state.
func (p *proc) storeSliceCell(ptr pointer, val value, src ssa.Value, t types.Type, pos token.Pos, o Origin, cur int) int {
	s := p.s
	if p.grownPrivate(val) {
		var ok bool
		if cur, ok = p.storeGrown(val, src, pos, cur); !ok {
			if !ptr.dynamic() {
				// Loads of the cell give slices grown by append from the
				// next round on (appendGrownLoaded), as when stored.
				s.wrotePtrCell(ptr)
				s.sliceWord(val, t, ptr.key(), pos)
			}
			return cur
		}
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		s.wrotePtrCell(q)
		return []model.Op{model.WriteOp(s.varFor(q), s.sliceWord(val, t, q.key(), pos))}
	})
}

// sliceInit is the initial word of the slice cell of key k of type t: that
// of the set-up's value v.
func (s *system) sliceInit(v value, t types.Type, k string) int64 {
	w, ok := s.sliceWord(v, t, k, token.NoPos).(model.Const)
	if !ok {
		s.unsupported(token.NoPos, "a slice of run-time length left in memory by the set-up")
	}
	return w.Value
}

// sliceNilCompare lowers x == nil or x != nil for a slice loaded from
// memory; ok is false for other operands.
func sliceNilCompare(x, y value, in *ssa.BinOp) (value, bool) {
	if y.kind == vSlice {
		x, y = y, x
	}
	if x.kind != vSlice || x.sl.null == nil || y.kind != vNil {
		return value{}, false
	}
	if in.Op == token.EQL {
		return intVal(x.sl.null), true
	}
	return intVal(model.Not(x.sl.null)), true
}

// appendWindow lowers append(x, srcs...) in a goroutine to x, a window of
// run-time length over an array of fixed capacity (a slice loaded from
// memory): the values go to the cells after its length, as Go's append
// with room does. Beyond the capacity append moves the elements to an
// array of the runtime's choice, and beyond windowCases the case split
// ends: both are run-time refusals.
func (p *proc) appendWindow(fr *frame, in *ssa.Call, x value, srcs []ssa.Value, cur int) int {
	s := p.s
	pos := in.Pos()
	n := int64(len(srcs))
	o := Origin{Instr: in}
	join := p.newLoc(pos)
	last := min(x.sl.cap-n, windowCases-1)
	for k := int64(0); k <= last; k++ {
		c := model.Bin(model.OpEq, x.sl.dlen, model.C(k))
		if x.sl.dcap != nil {
			c = model.Bin(model.OpAnd, c, model.Bin(model.OpLe, model.C(k+n), x.sl.dcap))
		}
		at := p.emit(cur, model.GuardOp(c), pos, Origin{})
		for i, src := range srcs {
			q := x.ptr.with(step{field: -1, index: int(x.sl.off + k + int64(i))})
			at = p.storeTo(q, s.get(fr, src), src, pos, o, at)
		}
		p.emitTo(at, model.NopOp(), join, pos, Origin{})
	}
	room := model.Expr(model.C(x.sl.cap))
	what := fmt.Sprintf("append beyond the capacity %d of a slice loaded from memory (the array it moves the elements to is the runtime's choice)", x.sl.cap)
	if x.sl.dcap != nil {
		room = x.sl.dcap
		what = "append beyond the capacity of a slice made with a size known only at run time (the array it moves the elements to is the runtime's choice)"
	} else if !x.sl.fromMem {
		what = fmt.Sprintf("append beyond the capacity %d of a slice made with a length known only at run time (the array it moves the elements to is the runtime's choice)", x.sl.cap)
	}
	beyond := p.emit(cur, model.GuardOp(model.Bin(model.OpGt, model.Bin(model.OpAdd, x.sl.dlen, model.C(n)), room)), pos, Origin{})
	p.refuseAt(beyond, what, pos)
	if last < x.sl.cap-n {
		far := p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, model.Bin(model.OpGt, x.sl.dlen, model.C(last)), model.Bin(model.OpLe, x.sl.dlen, model.C(x.sl.cap-n)))), pos, Origin{})
		p.refuseAt(far, fmt.Sprintf("append to a slice loaded from memory of more than %d elements (fencecheck splits over its first %d lengths)", windowCases-1, windowCases), pos)
	}
	v := x
	v.sl.dlen = model.Bin(model.OpAdd, x.sl.dlen, model.C(n))
	v.sl.null = nil
	fr.vals[in] = v
	return join
}

// sliceWindow evaluates x[lo:hi:max] for x, a window of run-time length
// (a slice loaded from memory), with constant bounds: hi and max are
// checked against the capacity, as Go does. Without hi, the result keeps
// x's length, so lo must be 0. ok is false when the bounds are out of
// range.
func (s *system) sliceWindow(in *ssa.Slice, x value, bound func(ssa.Value, int64) int64) (value, bool) {
	lo, max := bound(in.Low, 0), bound(in.Max, x.sl.cap)
	if in.High == nil {
		if lo != 0 {
			s.unsupported(in.Pos(), "x[lo:] with lo > 0 on a slice whose length is known only at run time")
		}
		if max > x.sl.cap {
			return value{}, false
		}
		v := x
		v.sl.cap = max
		return v, true
	}
	hi := bound(in.High, 0)
	if lo < 0 || hi < lo || max < hi || max > x.sl.cap {
		return value{}, false
	}
	v := sliceVal(x.ptr, x.sl.off+lo, hi-lo, max-lo)
	if hi == 0 && x.sl.null != nil {
		// nil[0:0] is nil.
		v.sl.dlen, v.sl.null = model.C(0), x.sl.null
	}
	return v, true
}

// uncomputedSliceUse lowers a use that looks inside a slice the model does
// not compute (a []byte of debug.Stack() loaded from memory): len is 0
// where it is nil, and any use is a run-time refusal where it is not.
// ok is false for other instructions.
func (p *proc) uncomputedSliceUse(fr *frame, in ssa.Instruction, cur int) (int, bool) {
	var x ssa.Value
	what := ""
	switch in := in.(type) {
	case *ssa.IndexAddr:
		x, what = in.X, "indexing"
	case *ssa.Slice:
		x, what = in.X, "slicing"
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") && len(in.Call.Args) == 1 {
			x, what = in.Call.Args[0], b.Name()+" of"
		}
	}
	if x == nil || !isSliceType(x.Type()) {
		return cur, false
	}
	v := p.s.get(fr, x)
	if v.kind != vOpaque || !v.uncomputed {
		return cur, false
	}
	what += " " + v.why
	if sl, isSlice := in.(*ssa.Slice); v.e == nil || isSlice && (sl.Low != nil || sl.High != nil || sl.Max != nil) {
		return p.refuseAt(cur, what, in.Pos()), true
	}
	p.refuseAt(p.emit(cur, model.GuardOp(v.e), in.Pos(), Origin{}), what, in.Pos())
	null := p.emit(cur, model.GuardOp(model.Not(v.e)), in.Pos(), Origin{})
	switch in := in.(type) {
	case *ssa.Call:
		fr.vals[in] = constVal(0)
		return null, true
	case *ssa.Slice:
		fr.vals[in] = value{kind: vNil}
		return null, true
	}
	p.panicAt(panicSite{loc: null, name: "index out of range", pos: in.Pos()})
	return -1, true
}

// appendLoaded lowers the part of append(x, srcs...) that depends on
// where x, a slice loaded from memory, comes from. A window of an array
// of fixed capacity gets the values after its length (appendWindow).
// A slice grown by append, nil or not, is appendGrownLoaded's. It returns
// the location after the append.
func (p *proc) appendLoaded(fr *frame, in *ssa.Call, x value, srcs []ssa.Value, cur int) int {
	pos := in.Pos()
	if !x.sl.grown && x.sl.fromMem && x.sl.cap == 0 && x.sl.dcap == nil && x.sl.doff == nil && x.ptr.ref == nil {
		// A window of an array without room (the set-up's
		// make([]T, 0, n) of n = 0, ants' worker stack) loaded from a
		// cell that holds no slice grown by append yet: every append
		// grows it, as one to nil does, into an array of the append's
		// own. Its result stored back tells the next round that the cell
		// holds grown slices, and loads then take the window as one of
		// length 0 without room (sliceFromWord).
		g := x
		g.sl.grown, g.sl.empty = true, model.C(1)
		return p.appendGrownLoaded(fr, in, g, srcs, cur)
	}
	if !x.sl.grown {
		if x.sl.null != nil {
			g := p.emit(cur, model.GuardOp(x.sl.null), pos, Origin{})
			p.refuseAt(g, "append to a nil slice loaded from a cell that also holds a window of an array of its own (Go makes a new array, fencecheck keeps the cell's)", pos)
			cur = p.emit(cur, model.GuardOp(model.Not(x.sl.null)), pos, Origin{})
		}
		return p.appendWindow(fr, in, x, srcs, cur)
	}
	return p.appendGrownLoaded(fr, in, x, srcs, cur)
}

// appendGrownLoaded lowers append(x, srcs...) in a goroutine to x, a
// slice grown by append loaded from memory (nil, or a window of run-time
// length over one of the arrays of growBound cells appends made). Whether
// the array has room is the runtime's choice, so both of Go's ways are
// runs of the model: the values go to the cells after x's length (room,
// not for nil), or the elements move to a new array, read from the old
// one, followed by the values (growth, as Go's growslice copies them).
// The new array is the append's own (that of its web, growArray), one
// per run; in a loop, one of maxPool, as an allocation in a loop takes
// (pickFromPool): one more growth there is inconclusive, naming the
// count. A length beyond growBound leaves the length's domain.
//
// The result holds the array chosen at run time and its length; the
// append may only be stored or read (not appended to again, whose growth
// would reuse the array), and no other slice of its web may be used after
// it (checkWeb).
func (p *proc) appendGrownLoaded(fr *frame, in *ssa.Call, x value, srcs []ssa.Value, cur int) int {
	vals := make([]value, len(srcs))
	for i, src := range srcs {
		vals[i] = p.s.get(fr, src)
	}
	return p.appendToLoaded(fr, in, x, appendSrc{vals: vals, srcs: srcs}, cur)
}

// appendSrc is what an append to a slice loaded from memory appends: the
// values vals (of the SSA values srcs), or, for append(x, y...), the
// elements of y, a slice grown by append loaded from memory (spread).
type appendSrc struct {
	vals   []value
	srcs   []ssa.Value
	spread *value
}

// loadedAppend is the bookkeeping of one append to a slice grown by
// append loaded from memory: the array it may move the elements to, the
// registers of the result (array, length and, for a window at a run-time
// offset, offset) and how an element moves.
type loadedAppend struct {
	p          *proc
	x          value
	elem       types.Type
	name       string
	pos        token.Pos
	o          Origin
	news, objs []*object
	loop       bool
	expr       string
	id, length int
	off        int // -1 when x's offset is a constant
	minCap     int // the result's least capacity, -1 when x has none
	oldID      model.Expr
}

// newLoadedAppend prepares append(x, ...) of in; ok is false, with the
// location to go on from, when the elements cannot move (a run-time
// refusal).
func (p *proc) newLoadedAppend(fr *frame, in *ssa.Call, x value, cur int) (la *loadedAppend, next int, ok bool) {
	s := p.s
	pos := in.Pos()
	if x.sl.loadGrown {
		s.unsupported(pos, "append to the result of an append to a slice loaded from memory (store it back first: fencecheck keeps one new array per append)")
	}
	elem := s.sliceElem(in.Call.Args[0].Type(), pos)
	// The array is allocated on every path, so that the objects of a
	// round settle when the append is refused.
	g := p.growArray(fr, in, elem)
	if (classify(elem) != leafInt && !isPtrCell(elem) && !isFuncCell(elem)) || isAggregate(elem) {
		// Refused where a run reaches it: perks' merge appends its
		// samples (structs) only once a buffer of 500 is full.
		return nil, p.refuseAt(cur, fmt.Sprintf("append moving elements of type %s of a slice loaded from memory to a new array (only integers, booleans, strings, pointers and functions are copied)", elem), pos), false
	}
	b := in.Block()
	p.checkWeb(fr, in, b, instrIndex(b, in)+1, in, in, nil, pos)
	la = &loadedAppend{p: p, x: x, elem: elem, pos: pos, o: Origin{Instr: in}, news: []*object{g}, loop: inLoop(fr, b), off: -1, minCap: -1}
	if la.loop {
		la.news = p.growPool(fr, in, g, pos)
	}
	la.name = sliceName(s, fr, in)
	if la.name == "the slice" {
		la.name = sliceName(s, fr, in.Call.Args[0])
	}
	if la.loop {
		var ok bool
		if la.expr, ok = exprText(s, fr, in); !ok {
			la.expr = "append to " + la.name
		}
	}
	la.id = p.newReg(la.name+".array", types.Typ[types.Int])
	la.length = p.lenReg(la.name, pos)
	olds := []*object{x.ptr.obj}
	switch {
	case x.sl.empty == model.Expr(model.C(1)):
		// An array without room: the result is never in it.
		olds, la.oldID = nil, model.C(0)
	case x.ptr.ref != nil:
		olds, la.oldID = x.ptr.ref.objs, x.ptr.ref.e
	default:
		la.oldID = model.C(s.poolID(x.ptr.obj, pos))
	}
	if x.sl.doff != nil {
		la.off = p.newReg(la.name+".off", types.Typ[types.Int])
		if p.limits == nil {
			p.limits = map[int][2]int64{}
		}
		p.limits[la.off] = [2]int64{0, growBound}
		if p.sources == nil {
			p.sources = map[int]source{}
		}
		p.sources[la.off] = source{fmt.Sprintf("the offset of %s in its array (fencecheck keeps %d elements of a slice grown by append)", la.name, growBound), pos}
	}
	if x.sl.minCap != nil {
		la.minCap = p.newReg(la.name+".mincap", types.Typ[types.Int])
	}
	la.objs = slices.Clone(olds)
	for _, a := range la.news {
		if !slices.Contains(la.objs, a) {
			la.objs = append(la.objs, a)
		}
	}
	return la, cur, true
}

// move copies the element in the cell from to the cell to.
func (la *loadedAppend) move(from, to pointer, at int) int {
	p := la.p
	if isPtrCell(la.elem) {
		// A pointer moves as the reference it is.
		var v value
		v, at = p.loadPtrCell(from, la.elem, la.name+".elem", la.pos, la.o, at)
		return p.storeTo(to, v, nil, la.pos, la.o, at)
	}
	if isFuncCell(la.elem) {
		// A function value moves as its index in the function table.
		var v value
		v, at = p.loadFuncCell(from, la.elem, la.name+".elem", la.pos, la.o, at)
		return p.storeTo(to, v, nil, la.pos, la.o, at)
	}
	var e model.Expr
	e, at = p.readArrayCell(from, la.name, la.pos, la.o, at)
	return p.storeTo(to, intVal(e), nil, la.pos, la.o, at)
}

// grown picks the array the elements move to (one of the pool in a loop)
// and runs fill on it, setting the offset to 0; it returns where the
// growth ends.
func (la *loadedAppend) grown(cur int, fill func(arr *object, at int) int) int {
	p := la.p
	f := func(arr *object, at int) int {
		if la.off >= 0 {
			at = p.emit(at, model.AssignOp(la.off, model.C(0)), la.pos, Origin{})
		}
		return fill(arr, at)
	}
	if la.loop {
		return p.pickFromPool(la.news, la.id, la.expr, la.pos, cur, f)
	}
	return f(la.news[0], p.emit(cur, model.AssignOp(la.id, model.C(p.s.poolID(la.news[0], la.pos))), la.pos, Origin{}))
}

// capAfter sets the result's least capacity, when x has one, for a
// result of length n: n after growth, at least x's with room.
func (la *loadedAppend) capAfter(at int, n model.Expr, room bool) int {
	if la.minCap < 0 {
		return at
	}
	least := n
	if room {
		// max(x's least capacity, n)
		old := la.x.sl.minCap
		least = model.Bin(model.OpAdd, old, model.Bin(model.OpMul, model.Bin(model.OpGt, n, old), model.Bin(model.OpSub, n, old)))
	}
	return la.p.emit(at, model.AssignOp(la.minCap, least), la.pos, Origin{})
}

// room ends a run with room in x's array: array and offset stay x's.
func (la *loadedAppend) room(at int) int {
	p := la.p
	at = p.emit(at, model.AssignOp(la.id, la.oldID), la.pos, Origin{})
	if la.off >= 0 {
		at = p.emit(at, model.AssignOp(la.off, la.x.sl.doff), la.pos, Origin{})
	}
	return at
}

// pastCells returns the condition that room for total elements in x's
// array lies past the cells the model keeps of it (x at a run-time
// offset), and what refusing it says; nil when it cannot.
func (la *loadedAppend) pastCells(total model.Expr) (model.Expr, string) {
	if la.off < 0 {
		return nil, ""
	}
	return model.Bin(model.OpGt, model.Bin(model.OpAdd, la.x.sl.doff, total), model.C(la.x.sl.cap)),
		fmt.Sprintf("append with room to a slice grown by append and resliced, past the %d elements fencecheck keeps of its array", la.x.sl.cap)
}

// result is the slice the append gives.
func (la *loadedAppend) result() value {
	for _, a := range la.objs {
		la.p.s.poolID(a, la.pos)
	}
	v := sliceVal(pointer{obj: la.objs[0], ref: &dynObj{e: model.R(la.id), objs: la.objs, typ: la.objs[0].typ}}, 0, 0, growBound)
	v.sl.grown, v.sl.fromMem, v.sl.loadGrown = true, true, true
	v.sl.dlen = model.R(la.length)
	if la.off >= 0 {
		v.sl.doff = model.R(la.off)
	}
	if la.minCap >= 0 {
		v.sl.minCap = model.R(la.minCap)
	}
	return v
}

// appendToLoaded is appendGrownLoaded for what src appends. With room,
// the elements go after x's length one by one, in order (memmove's order
// for a removal's append(s[:i], s[i+1:]...)); growth moves x's elements
// to a new array, then puts them after. Both are chains of at most
// growBound guarded moves at run-time indexes, not a case split over the
// lengths.
func (p *proc) appendToLoaded(fr *frame, in *ssa.Call, x value, src appendSrc, cur int) int {
	la, cur, ok := p.newLoadedAppend(fr, in, x, cur)
	if !ok {
		return cur
	}
	pos := la.pos
	var m model.Expr // how many elements are appended
	if src.spread != nil {
		m = src.spread.sl.dlen
	} else {
		m = model.C(int64(len(src.vals)))
	}
	total := model.Bin(model.OpAdd, x.sl.dlen, m)
	// put appends the elements to the cells to(dlen+t), in order.
	put := func(to func(model.Expr) pointer, at int) int {
		if src.spread == nil {
			for t := range src.vals {
				at = p.storeTo(to(model.Bin(model.OpAdd, x.sl.dlen, model.C(int64(t)))), src.vals[t], src.srcs[t], pos, la.o, at)
			}
			return at
		}
		return la.copyChain(*src.spread, m, to, x.sl.dlen, at)
	}
	grows := model.Bin(model.OpGt, m, model.C(0))
	if x.sl.minCap != nil {
		// Go's capacity is at least minCap: no growth within it.
		grows = model.Bin(model.OpAnd, grows, model.Bin(model.OpLt, x.sl.minCap, total))
	}
	if _, fixed := m.(model.Const); fixed && x.sl.minCap == nil {
		grows = model.C(1)
	}
	join := la.grown(p.emitGuard(cur, grows, pos), func(arr *object, at int) int {
		done := p.newLoc(pos)
		far := p.emit(at, model.GuardOp(model.Bin(model.OpGt, total, model.C(growBound))), pos, Origin{})
		p.emitTo(la.capAfter(far, total, false), model.AssignOp(la.length, total), done, pos, Origin{})
		at = p.emit(at, model.GuardOp(model.Bin(model.OpLe, total, model.C(growBound))), pos, Origin{})
		to := func(e model.Expr) pointer {
			if c, ok := e.(model.Const); ok {
				return pointer{obj: arr}.with(step{field: -1, index: int(c.Value)})
			}
			return pointer{obj: arr}.with(step{field: -1, dyn: e, lo: 0, n: growBound})
		}
		at = la.copyChain(x, x.sl.dlen, to, model.C(0), at)
		la.settle(put(to, at), m, false, done)
		return done
	})
	// Room: none in nil's array, unless nothing is appended; room past
	// the cells the model keeps of the array (Go's may have it) is a
	// run-time refusal.
	room := model.Expr(model.C(1))
	if x.sl.null != nil {
		room = model.Not(x.sl.null)
		if x.sl.empty != nil {
			room = model.Bin(model.OpAnd, room, model.Not(x.sl.empty))
		}
		if src.spread != nil {
			room = model.Bin(model.OpOr, model.Bin(model.OpEq, m, model.C(0)), room)
		}
	}
	past, why := la.pastCells(total)
	if past == nil {
		past = model.Bin(model.OpGt, model.Bin(model.OpAdd, model.C(x.sl.off), total), model.C(x.sl.cap))
		why = fmt.Sprintf("append with room to a slice grown by append, past the %d elements fencecheck keeps of its array", x.sl.cap)
	}
	p.refuseAt(p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, room, past)), pos, Origin{}), why, pos)
	r := p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, room, model.Not(past))), pos, Origin{})
	r = put(func(e model.Expr) pointer { return elemCell(x, e) }, r)
	la.settle(la.room(r), m, true, join)
	fr.vals[in] = la.result()
	return join
}

// settle ends a run of the append at at, with room or not, going to
// done: the result's length (and least capacity) become constants by a
// case split over x's length and the count appended, which keeps the words
// stored back a few values for the domain inference.
func (la *loadedAppend) settle(at int, m model.Expr, room bool, done int) {
	p, x := la.p, la.x
	var counts []int64
	if c, ok := m.(model.Const); ok {
		counts = []int64{c.Value}
	} else {
		for j := int64(0); j <= growBound; j++ {
			counts = append(counts, j)
		}
	}
	for k := int64(0); k <= growBound; k++ {
		for _, j := range counts {
			if k+j > growBound {
				continue
			}
			c := model.Expr(model.Bin(model.OpEq, x.sl.dlen, model.C(k)))
			if len(counts) > 1 {
				c = model.Bin(model.OpAnd, c, model.Bin(model.OpEq, m, model.C(j)))
			}
			r := p.emit(at, model.GuardOp(c), la.pos, Origin{})
			r = la.capAfter(r, model.C(k+j), room)
			p.emitTo(r, model.AssignOp(la.length, model.C(k+j)), done, la.pos, Origin{})
		}
	}
}

// emitGuard emits a guard on c from cur, or nothing when c is the
// constant true.
func (p *proc) emitGuard(cur int, c model.Expr, pos token.Pos) int {
	if k, ok := c.(model.Const); ok && k.Value != 0 {
		return cur
	}
	return p.emit(cur, model.GuardOp(c), pos, Origin{})
}

// copyChain moves the first count elements of from, one by one, to the
// cells to(base+t), stopping at count: a chain of growBound guarded moves.
func (la *loadedAppend) copyChain(from value, count model.Expr, to func(model.Expr) pointer, base model.Expr, at int) int {
	return la.p.guardedChain(at, count, growBound, la.pos, func(t int64, at int) int {
		dst := base
		if t != 0 {
			dst = model.Bin(model.OpAdd, base, model.C(t))
		}
		if c, ok := base.(model.Const); ok {
			dst = model.C(c.Value + t)
		}
		return la.move(elemCell(from, model.C(t)), to(dst), at)
	})
}

// guardedChain emits from at, for t from 0 while t < count (at most most
// steps), each(t), and returns the location after the chain.
func (p *proc) guardedChain(at int, count model.Expr, most int64, pos token.Pos, each func(t int64, at int) int) int {
	done := p.newLoc(pos)
	for t := range most {
		p.emitTo(at, model.GuardOp(model.Bin(model.OpLe, count, model.C(t))), done, pos, Origin{})
		at = each(t, p.emit(at, model.GuardOp(model.Bin(model.OpGt, count, model.C(t))), pos, Origin{}))
	}
	p.emitTo(at, model.NopOp(), done, pos, Origin{})
	return done
}

// growPool returns the maxPool arrays an append in a loop of the process
// moves the elements of a slice loaded from memory to, first g.
func (p *proc) growPool(fr *frame, in *ssa.Call, g *object, pos token.Pos) []*object {
	k := growKey{fr, in}
	if objs, ok := p.grow.pools[k]; ok {
		return objs
	}
	objs := p.s.poolObjects(g, g.owner, pos)
	for _, o := range objs {
		o.grower = g.grower
	}
	if p.grow.pools == nil {
		p.grow.pools = map[growKey][]*object{}
	}
	p.grow.pools[k] = objs
	return objs
}

// readArrayCell reads the integer cell q of an array in memory (a shared
// variable, or a register of the process's own array) into a new
// register named after name, returning its value.
func (p *proc) readArrayCell(q pointer, name string, pos token.Pos, o Origin, cur int) (model.Expr, int) {
	s := p.s
	t, _ := q.target()
	r := p.newReg(name+".elem", t)
	cur = p.access(cur, q, pos, o, func(c pointer) []model.Op {
		if c.obj.owner >= 0 {
			return []model.Op{model.AssignOp(r, model.R(p.privateReg(c)))}
		}
		return []model.Op{model.ReadOp(s.varFor(c), r)}
	})
	return model.R(r), cur
}

// storeGrown checks the store, at pos, of v, a slice the process grows by
// append (src its SSA value), into memory: its array is shared from its
// make, which stands for Go's only when no append of the slice can run
// after the store (in a loop, or further on) — such a store is a
// run-time refusal (ok false, with the location to go on from).
func (p *proc) storeGrown(v value, src ssa.Value, pos token.Pos, cur int) (int, bool) {
	fr, b := p.at.fr, p.at.b
	why := ""
	switch {
	case fr == nil || b == nil || src == nil:
		why = "storing in memory a slice grown by append where fencecheck cannot tell which appends follow"
	case inLoop(fr, b):
		why = "storing in memory, in a loop, a slice grown by append (each round may grow it again: whether its elements move is the runtime's choice)"
	case p.appendFollows(fr, b, src):
		why = "storing in memory a slice grown by append that the goroutine appends to after the store (whether its elements move is the runtime's choice)"
	}
	if why != "" {
		return p.refuseAt(cur, why, pos), false
	}
	p.s.shareObject(v.ptr.obj, pos)
	return cur, true
}

// appendFollows reports whether an append of the web of src may run after
// src is defined, in block b or a block after it.
func (p *proc) appendFollows(fr *frame, b *ssa.BasicBlock, src ssa.Value) bool {
	w := p.websOf(fr.fn)
	root := w.find(src)
	if _, ok := w.parent[src]; !ok {
		return false
	}
	after := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if !after[x] {
			after[x] = true
			work = append(work, x.Succs...)
		}
	}
	at := -1
	if in, ok := src.(ssa.Instruction); ok && in.Block() == b {
		at = instrIndex(b, in)
	}
	for _, u := range w.members[root] {
		in, ok := u.(ssa.Instruction)
		if !ok || !isAppend(in) || u == src {
			continue
		}
		if after[in.Block()] || in.Block() == b && instrIndex(b, in) > at {
			return true
		}
	}
	return false
}

// shapeNames names the shapes of the slice headers of the system's model
// for Entity.Value: the array as a finding names it ("" for a []byte the
// model does not compute).
func (s *system) shapeNames() []shapeName {
	out := make([]shapeName, len(s.heap.shapes))
	for i, sh := range s.heap.shapes {
		arr := s.byID[sh.arr]
		if sh.arr < 0 || arr == nil {
			continue
		}
		name := arr.name
		if h := arr.holder; arr.anon && h != nil {
			name = h.obj.name
			if len(h.path) != 0 {
				name = h.name()
			}
		}
		if name == "" || arr.anon && name == arr.name {
			name = "array"
		}
		out[i] = shapeName{array: name, off: sh.off}
	}
	return out
}

// sliceArrayRef lowers a[lo:hi] of a pointer to an array chosen at run
// time, one of the objects of an allocation in a loop (make([]T, 2) in a
// goroutine's loop, which go/ssa allocates as a [2]T): a window over the
// array the pointer names, a nil pointer panicking. ok is false for other
// instructions.
func (p *proc) sliceArrayRef(fr *frame, in ssa.Instruction, cur int) (int, bool) {
	sl, ok := in.(*ssa.Slice)
	if !ok {
		return cur, false
	}
	pt, ok := sl.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return cur, false
	}
	arr, ok := pt.Elem().Underlying().(*types.Array)
	x := p.s.get(fr, sl.X)
	if !ok || x.kind != vRef || len(x.objs) == 0 || arr.Len() == 0 {
		return cur, false
	}
	pos := in.Pos()
	for _, o := range x.objs {
		if !types.Identical(o.typ, pt.Elem()) {
			p.s.unsupported(pos, "slicing an array pointer that may name an object of another type")
		}
		p.s.shareObject(o, pos)
	}
	bound := func(b ssa.Value, def int64) int64 {
		if b == nil {
			return def
		}
		c, isConst := p.s.get(fr, b).constant()
		if !isConst {
			p.s.unsupported(pos, "a slice expression with bounds known only at run time (a slice's window must be fixed by the set-up)")
		}
		return c
	}
	lo, hi, max := bound(sl.Low, 0), bound(sl.High, arr.Len()), bound(sl.Max, arr.Len())
	if lo < 0 || hi < lo || max < hi || max > arr.Len() {
		p.panicAt(panicSite{loc: cur, name: "slice bounds out of range", pos: pos})
		return -1, true
	}
	null := model.Bin(model.OpEq, x.e, model.C(0))
	p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(null), pos, Origin{}), name: "nil pointer dereference", pos: pos})
	cur = p.emit(cur, model.GuardOp(model.Not(null)), pos, Origin{})
	ref := &dynObj{e: x.e, objs: x.objs, typ: pt.Elem()}
	fr.vals[sl] = sliceVal(pointer{obj: x.objs[0], ref: ref}, lo, hi-lo, max-lo)
	return cur, true
}
