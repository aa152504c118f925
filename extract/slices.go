package extract

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Slices. A slice whose backing array is fixed once the setup is done is a
// window onto that array: the value holds a pointer to the array and the
// window's offset, length and capacity, all constants. Its elements are the
// array's cells, one model variable each, exactly like the elements of an
// array; an index known only at run time is the case split of arrays,
// bounded by the window, and an index outside the window panics, as in Go.

// sliceHdr is what a slice value holds besides the pointer to its backing
// array: where the window starts in the array, its length and its capacity.
type sliceHdr struct {
	off, len, cap int64
}

// maxSliceCap bounds the capacity of a slice the model keeps.
const maxSliceCap = 1 << 16

func sliceVal(arr pointer, off, n, c int64) value {
	return value{kind: vSlice, ptr: arr, sl: sliceHdr{off: off, len: n, cap: c}}
}

// sliceElem returns the element type of a slice type.
func (s *system) sliceElem(t types.Type, pos token.Pos) types.Type {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		s.unsupported(pos, "a slice of type %s", t)
	}
	return sl.Elem()
}

// makeSlice allocates the backing array of make([]T, n, c) for owner (-1
// for the setup's shared state, else the process it is private to). Its
// length and capacity must be known: they fix the cells of the model.
func (s *system) makeSlice(fr *frame, in *ssa.MakeSlice, owner int) value {
	elem := s.sliceElem(in.Type(), in.Pos())
	n, ok := s.get(fr, in.Len).constant()
	if !ok {
		s.unsupported(in.Pos(), "make(%s, n) with a length known only at run time (a slice's length must be fixed by the set-up)", in.Type())
	}
	c := n
	if in.Cap != nil {
		if c, ok = s.get(fr, in.Cap).constant(); !ok {
			s.unsupported(in.Pos(), "make(%s, n, c) with a capacity known only at run time (a slice's capacity must be fixed by the set-up)", in.Type())
		}
	}
	if n < 0 || c < n {
		s.fail(in.Pos(), "makeslice: len %d or cap %d out of range", n, c)
	}
	if c > maxSliceCap {
		s.unsupported(in.Pos(), "a slice of %d elements (at most %d are modelled)", c, maxSliceCap)
	}
	o := s.newObject("", types.NewArray(elem, c), nil, owner)
	return sliceVal(pointer{obj: o}, 0, n, c)
}

// sliceIndex evaluates &s[i] for a slice s. ok is false when i is a
// constant outside s: the instruction panics.
func (s *system) sliceIndex(fr *frame, in *ssa.IndexAddr) (v value, ok bool) {
	x := s.get(fr, in.X)
	var hdr sliceHdr
	switch x.kind {
	case vSlice:
		hdr = x.sl
	case vNil:
		// A nil slice has no elements: every index is out of range.
	default:
		s.unsupported(in.Pos(), "indexing %s", describe(x))
	}
	idx := s.get(fr, in.Index)
	e := s.asInt(idx, in.Pos())
	if c, isConst := idx.constant(); isConst {
		if c < 0 || c >= hdr.len {
			return value{}, false
		}
		return value{kind: vPtr, ptr: x.ptr.with(step{field: -1, index: int(hdr.off + c)})}, true
	}
	if x.kind == vNil {
		return value{}, false
	}
	if hdr.off != 0 {
		e = model.Bin(model.OpAdd, e, model.C(hdr.off))
	}
	return value{kind: vPtr, ptr: x.ptr.with(step{field: -1, dyn: e, lo: int(hdr.off), n: int(hdr.off + hdr.len)})}, true
}

// slice evaluates x[lo:hi:max] for a slice or a pointer to an array. The
// bounds must be constants; ok is false when they are out of range: the
// instruction panics.
func (s *system) slice(fr *frame, in *ssa.Slice) (v value, ok bool) {
	x := s.get(fr, in.X)
	var base value
	switch u := in.X.Type().Underlying().(type) {
	case *types.Slice:
		switch x.kind {
		case vSlice:
			base = x
		case vNil:
			base = value{kind: vNil}
		default:
			s.unsupported(in.Pos(), "slicing %s", describe(x))
		}
	case *types.Pointer:
		arr, isArr := u.Elem().Underlying().(*types.Array)
		if !isArr {
			s.unsupported(in.Pos(), "slicing a value of type %s", in.X.Type())
		}
		switch x.kind {
		case vPtr:
			if x.ptr.dynamic() {
				s.unsupported(in.Pos(), "slicing an array chosen by an index known only at run time")
			}
			base = sliceVal(x.ptr, 0, arr.Len(), arr.Len())
		case vNil:
			if arr.Len() != 0 {
				return value{}, false
			}
			base = value{kind: vNil}
		default:
			s.unsupported(in.Pos(), "slicing %s", describe(x))
		}
	case *types.Basic:
		s.unsupported(in.Pos(), "slicing a string (strings are opaque values)")
	default:
		s.unsupported(in.Pos(), "slicing a value of type %s", in.X.Type())
	}
	bound := func(b ssa.Value, def int64) int64 {
		if b == nil {
			return def
		}
		c, isConst := s.get(fr, b).constant()
		if !isConst {
			s.unsupported(in.Pos(), "a slice expression with bounds known only at run time (a slice's window must be fixed by the set-up)")
		}
		return c
	}
	lo, hi, max := bound(in.Low, 0), bound(in.High, base.sl.len), bound(in.Max, base.sl.cap)
	if lo < 0 || hi < lo || max < hi || max > base.sl.cap {
		return value{}, false
	}
	if base.kind == vNil {
		return base, true
	}
	return sliceVal(base.ptr, base.sl.off+lo, hi-lo, max-lo), true
}

// lenCap returns len(x) or cap(x) for a slice, a nil slice or a constant
// string (x of type t).
func (s *system) lenCap(name string, x value, t types.Type, pos token.Pos) value {
	if isString(t) {
		if str, ok := s.stringOf(x); ok && name == "len" {
			return constVal(int64(len(str)))
		}
		s.unsupported(pos, "len of a string known only at run time (strings are opaque values)")
	}
	switch x.kind {
	case vChan:
		if name == "cap" {
			return constVal(int64(x.ch.cap))
		}
		return constVal(int64(len(x.ch.initBuf)))
	case vSlice:
		if name == "cap" {
			return constVal(x.sl.cap)
		}
		return constVal(x.sl.len)
	case vNil:
		return constVal(0)
	}
	s.unsupported(pos, "%s of %s", name, describe(x))
	return value{}
}

// nameBacking names the anonymous backing array of a slice stored in the
// cell p after it (see system.display).
func nameBacking(v value, p pointer) {
	if v.kind != vSlice || len(v.ptr.path) != 0 {
		return
	}
	o := v.ptr.obj
	if !o.anon || o.named || o == p.obj {
		return
	}
	if o.holder == nil || o.holder.obj.anon && !p.obj.anon {
		// The first cell, or a better one than a temporary (the composite
		// literal a constructor returns by value).
		q := p
		o.holder = &q
	}
}

// outOfRange names the panic of an index or slice expression whose
// constant bounds are out of range.
func outOfRange(in ssa.Instruction) string {
	if _, ok := in.(*ssa.Slice); ok {
		return "slice bounds out of range"
	}
	return "index out of range"
}

// appendCells evaluates append(x, a, b, ...) on a slice x with room for the
// values: the result, and the cells of x's backing array the values go to,
// with the values and the SSA values they come from. Appending beyond the
// capacity (which moves the slice to a new array whose capacity is the
// runtime's choice), to a nil slice, or the elements of another slice, is
// refused.
func (s *system) appendCells(fr *frame, args []ssa.Value, pos token.Pos) (value, []pointer, []value, []ssa.Value) {
	x := s.get(fr, args[0])
	srcs, ok := appendArgs(args[1])
	if !ok {
		s.unsupported(pos, "append of the elements of another slice (only appending values one by one is modelled)")
	}
	n := int64(len(srcs))
	switch x.kind {
	case vSlice:
	case vNil:
		if n == 0 {
			return x, nil, nil, nil
		}
		s.unsupported(pos, "append to a nil slice (it has no room: append allocates an array whose capacity is the runtime's choice; make the slice with room in the set-up)")
	default:
		s.unsupported(pos, "append to %s", describe(x))
	}
	if x.sl.len+n > x.sl.cap {
		s.unsupported(pos, "append beyond the capacity of the slice (length %d + %d > capacity %d: append moves it to an array whose capacity is the runtime's choice)", x.sl.len, n, x.sl.cap)
	}
	var cells []pointer
	var vals []value
	for i, src := range srcs {
		cells = append(cells, x.ptr.with(step{field: -1, index: int(x.sl.off + x.sl.len + int64(i))}))
		vals = append(vals, s.get(fr, src))
	}
	return sliceVal(x.ptr, x.sl.off, x.sl.len+n, x.sl.cap), cells, vals, srcs
}

// appendArgs returns the values append's variadic argument v holds, in
// order: the stores go/ssa makes into the array it slices. ok is false
// when v is another slice.
func appendArgs(v ssa.Value) ([]ssa.Value, bool) {
	if c, isConst := v.(*ssa.Const); isConst && c.Value == nil {
		return nil, true // append(x) appends nothing
	}
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil || sl.Max != nil {
		return nil, false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	at, ok := deref(arr.Type()).Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	out := make([]ssa.Value, at.Len())
	for _, r := range *arr.Referrers() {
		ia, isIA := r.(*ssa.IndexAddr)
		if !isIA {
			continue
		}
		k, isConst := ia.Index.(*ssa.Const)
		if !isConst {
			return nil, false
		}
		i, exact := constant.Int64Val(k.Value)
		if !exact || i < 0 || i >= at.Len() {
			return nil, false
		}
		for _, rr := range *ia.Referrers() {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == ia {
				out[i] = st.Val
			}
		}
	}
	for _, v := range out {
		if v == nil {
			return nil, false
		}
	}
	return out, true
}

// appendProc lowers append in a process: the stores of the values into the
// slice's backing array, in order.
func (p *proc) appendProc(fr *frame, in *ssa.Call, cur int) int {
	s := p.s
	pos := in.Pos()
	dst, cells, vals, srcs := s.appendCells(fr, in.Call.Args, pos)
	for i, q := range cells {
		cur = p.storeTo(q, vals[i], srcs[i], pos, Origin{Instr: in}, cur)
	}
	fr.vals[in] = dst
	return cur
}
