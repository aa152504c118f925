package extract

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Slices. A slice whose backing array is fixed once the setup is done is a
// window onto that array: the value holds a pointer to the array and the
// window's offset, length and capacity, all constants. Its elements are the
// array's cells, one model variable each, exactly like the elements of an
// array; an index known only at run time is the case split of arrays,
// bounded by the window, and an index outside the window panics, as in Go.
//
// Append grows slices too (appendCells in the set-up, appendProc in a
// goroutine): a grown slice's array is one the model chose, and in a
// goroutine its length may be known only at run time. Go's append may or
// may not copy, so an old slice used after an append to it is refused.

// sliceHdr is what a slice value holds besides the pointer to its backing
// array: where the window starts in the array, its length and its capacity.
//
// A slice that append made (from nil, or beyond the capacity of its old
// array) is grown: its array is one the model chose, and cap is the number
// of cells the model keeps, not Go's capacity, which is the runtime's
// choice. In a goroutine such a slice lives in an array private to it (see
// growBound) and its length may be known only at run time: dlen is then
// the length, an expression over the goroutine's registers, and len is
// meaningless.
type sliceHdr struct {
	off, len, cap int64
	dlen          model.Expr
	grown         bool
	// null, when set, says when the slice is nil (a header loaded from
	// memory, headers.go): its length is then 0.
	null model.Expr
	// fromMem marks a header loaded from memory.
	fromMem bool
	// loadGrown marks the result of an append to a slice grown by append
	// loaded from memory (appendGrownLoaded): its array is chosen at run
	// time, the old one or a new one.
	loadGrown bool
	// dcap, when set, is the capacity, known only at run time (a make
	// whose size takes a few values, refuse.go); cap is then the number
	// of cells of the array, the largest.
	dcap model.Expr
	// caps, when dcap is set by a make of a few sizes, are the
	// capacities it may take, each a shape of its own in memory (a
	// pointer, so that headers compare).
	caps *[]int64
	// doff, when set, is where the window starts in its array, known only
	// at run time: a slice grown by append, loaded from memory and
	// resliced (a queue's q.items[1:], headers.go's sliceLoadedGrown).
	// off is then 0 and cap the array's cells.
	doff model.Expr
	// minCap, when set, is a least capacity Go's slice has, known only at
	// run time (s[:i] of s of length n has at least n): an append within
	// it has room.
	minCap model.Expr
	// empty, when set, says when a slice grown by append loaded from
	// memory is instead the set-up's empty window of an array without
	// room (make([]T, 0), []T{}: headers.go's emptyWindow), of shape
	// emptyShape: not nil, of length and capacity 0, so append grows it.
	empty      model.Expr
	emptyShape sliceShape
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
	return s.makeSliceOf(in, n, c, owner)
}

// makeSliceOf allocates the backing array of make([]T, n, c) for owner, n
// and c known.
func (s *system) makeSliceOf(in *ssa.MakeSlice, n, c int64, owner int) value {
	elem := s.sliceElem(in.Type(), in.Pos())
	if n < 0 || c < n {
		s.goPanic(in.Pos(), "makeslice: len %d or cap %d out of range", n, c)
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
	if hdr.doff != nil {
		return value{kind: vPtr, ptr: x.ptr.with(shiftedIndex(hdr, e))}, true
	}
	if hdr.dlen != nil {
		// A slice of run-time length (grown, or loaded from memory): every
		// index is checked against the length too.
		hi := hdr.dlen
		if hdr.off != 0 {
			e = model.Bin(model.OpAdd, e, model.C(hdr.off))
			hi = model.Bin(model.OpAdd, hi, model.C(hdr.off))
		}
		if c, isConst := idx.constant(); isConst {
			if c < 0 || c >= hdr.cap {
				return value{}, false
			}
			return value{kind: vPtr, ptr: x.ptr.with(step{field: -1, dyn: e, lo: int(hdr.off + c), n: int(hdr.off + c + 1), hi: hi})}, true
		}
		st := step{field: -1, dyn: e, lo: int(hdr.off), n: int(hdr.off + hdr.cap), hi: hi}
		if !hdr.grown && hdr.cap > windowCases {
			st.n, st.cut = int(hdr.off+windowCases), int(hdr.off+hdr.cap)
		}
		return value{kind: vPtr, ptr: x.ptr.with(st)}, true
	}
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

// shiftedIndex is the step to element e of a window at a run-time offset
// (sliceHdr.doff) over an array of hdr.cap cells: below 0 or from the
// length on, the index is out of range.
func shiftedIndex(hdr sliceHdr, e model.Expr) step {
	at := model.Bin(model.OpAdd, hdr.doff, e)
	if _, isConst := e.(model.Const); !isConst {
		// A negative index must not land inside the array: it becomes -1.
		ok := model.Bin(model.OpGe, e, model.C(0))
		at = model.Bin(model.OpSub, model.Bin(model.OpMul, ok, model.Bin(model.OpAdd, at, model.C(1))), model.C(1))
	}
	return step{field: -1, dyn: at, lo: 0, n: int(hdr.cap), hi: model.Bin(model.OpAdd, hdr.doff, hdr.dlen)}
}

// slicingGrown is why slicing a slice grown by append is refused.
const slicingGrown = "slicing a slice grown by append (whether a later append shares its array is the runtime's choice)"

// slice evaluates x[lo:hi:max] for a slice or a pointer to an array. The
// bounds must be constants; ok is false when they are out of range: the
// instruction panics.
func (s *system) slice(fr *frame, in *ssa.Slice) (v value, ok bool) {
	if callersSlice(in) {
		v := opaque("the program counters runtime.Callers wrote, which fencecheck does not compute")
		v.uncomputed = true
		return v, true
	}
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
		return s.sliceString(fr, in, x)
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
	if base.sl.grown {
		s.unsupported(in.Pos(), slicingGrown)
	}
	if base.sl.dcap != nil {
		s.unsupported(in.Pos(), "slicing a slice whose capacity is known only at run time (a make whose size takes several values)")
	}
	if base.sl.dlen != nil {
		return s.sliceWindow(in, base, bound)
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
			if x.sl.grown {
				s.unsupported(pos, "cap of a slice grown by append (its capacity is the runtime's choice)")
			}
			if x.sl.dcap != nil {
				return intVal(x.sl.dcap)
			}
			return constVal(x.sl.cap)
		}
		if x.sl.dlen != nil {
			return intVal(x.sl.dlen)
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
	if v.kind == vMap {
		nameMapHolder(v, p)
		return
	}
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
// constant bounds are out of range, or of the address of a field or array
// element through a nil pointer.
func outOfRange(in ssa.Instruction) string {
	switch in := in.(type) {
	case *ssa.Slice:
		return "slice bounds out of range"
	case *ssa.FieldAddr:
		return "nil pointer dereference"
	case *ssa.IndexAddr:
		if _, isSlice := in.X.Type().Underlying().(*types.Slice); !isSlice {
			return "nil pointer dereference" // of a *[N]T
		}
	}
	return "index out of range"
}

// appendCells evaluates append(x, a, b, ...) in the set-up: the result,
// and the cells of its backing array the values go to, with the values and
// the SSA values they come from. Appending to a slice with room stores into
// its array, as Go does; to a nil slice or beyond the capacity, append
// moves the elements to a new array (growSetup). The elements of another
// slice are refused.
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
	default:
		s.unsupported(pos, "append to %s", describe(x))
	}
	if x.kind == vSlice && x.sl.grown {
		s.checkSetupGrown(fr, args, x, pos)
	}
	if x.kind == vNil || x.sl.len+n > x.sl.cap {
		x = s.growSetup(fr, x, args[1].Type(), n, pos)
	}
	var cells []pointer
	var vals []value
	for i, src := range srcs {
		cells = append(cells, x.ptr.with(step{field: -1, index: int(x.sl.off + x.sl.len + int64(i))}))
		vals = append(vals, s.get(fr, src))
	}
	return sliceVal(x.ptr, x.sl.off, x.sl.len+n, x.sl.cap).grownAs(x), cells, vals, srcs
}

// grownAs returns v, a slice, marked grown when w is.
func (v value) grownAs(w value) value {
	v.sl.grown = w.sl.grown
	return v
}

// growSetup moves the elements of x (a slice, or nil) to a new array of
// the shared state with room for n more, as append does when x has no
// room: it returns the slice of the new array holding x's elements. The
// new capacity is twice the old one, or the length needed: Go's is the
// runtime's choice, so the result is grown (cap refuses it, and appends
// to it check that the old slice is not used after them).
func (s *system) growSetup(fr *frame, x value, t types.Type, n int64, pos token.Pos) value {
	elem := s.sliceElem(t, pos)
	var old, off int64
	if x.kind == vSlice {
		old, off = x.sl.len, x.sl.off
	}
	c := max(old+n, 2*old)
	if x.kind == vSlice {
		c = max(c, 2*x.sl.cap)
	}
	// Its cells are at least those of a slice a goroutine grows, so that
	// a goroutine's append to it with room has them (appendGrownLoaded).
	c = max(c, growBound)
	if old+n > maxSliceCap {
		s.unsupported(pos, "a slice of %d elements (at most %d are modelled)", old+n, maxSliceCap)
	}
	c = min(c, maxSliceCap)
	o := s.newObject("", types.NewArray(elem, c), nil, -1)
	dst := pointer{obj: o}
	type kv struct {
		k string
		v value
	}
	for i := int64(0); i < old; i++ {
		from := x.ptr.with(step{field: -1, index: int(off + i)}).key()
		to := dst.with(step{field: -1, index: int(i)}).key()
		var moved []kv
		for k, v := range s.mem {
			if below(k, from) {
				moved = append(moved, kv{to + k[len(from):], v})
			}
		}
		for _, m := range moved {
			s.mem[m.k] = m.v
		}
	}
	v := sliceVal(dst, 0, old, c)
	v.sl.grown = true
	return v
}

// checkSetupGrown refuses an append in the set-up to x, a grown slice,
// whose old value may be used after it: whether append moves the elements
// to a new array is the runtime's choice, and decides what the old slice
// sees. The old value is the operand, any other value of the frame on the
// same array, or another cell of memory holding it.
func (s *system) checkSetupGrown(fr *frame, args []ssa.Value, x value, pos token.Pos) {
	call := appendCall(args)
	if call == nil {
		return
	}
	b := call.Block()
	i := instrIndex(b, call) + 1
	skip := func(r ssa.Instruction) bool { return r == call || isLenCap(r) }
	var old ssa.Value // the first in the code, for a stable message
	for v, w := range fr.vals {
		if w.kind != vSlice || w.ptr.obj != x.ptr.obj || v == call {
			continue
		}
		if usedAfter(v, b, i, skip) && (old == nil || v.Pos() < old.Pos() || v.Pos() == old.Pos() && v.Name() < old.Name()) {
			old = v
		}
	}
	if old != nil {
		s.unsupported(pos, "%s", aliasMsg(s, fr, old))
	}
	var from string
	if ld, ok := args[0].(*ssa.UnOp); ok && ld.Op == token.MUL {
		if p := s.get(fr, ld.X); p.kind == vPtr && !p.ptr.dynamic() {
			from = p.ptr.key()
		}
	}
	for k, w := range s.mem {
		if w.kind == vSlice && w.ptr.obj == x.ptr.obj && k != from {
			s.unsupported(pos, "append to a slice grown by append whose array another variable holds too (append may or may not move the elements to a new array)")
		}
	}
}

// aliasMsg is the diagnostic of a slice v used after an append to it or
// to a slice sharing its array.
func aliasMsg(s *system, fr *frame, v ssa.Value) string {
	name := sliceName(s, fr, v)
	var also []string
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if dr, ok := r.(*ssa.DebugRef); ok && !dr.IsAddr {
				if id, ok := ast.Unparen(dr.Expr).(*ast.Ident); ok && id.Name != name && !slices.Contains(also, id.Name) {
					also = append(also, id.Name)
				}
			}
		}
	}
	if len(also) > 0 {
		name += " (also named " + strings.Join(also, ", ") + ")"
	}
	return fmt.Sprintf("%s used after an append that may move its elements (append may or may not copy them to a new array: use only the slice append returns)", name)
}

// appendCall returns the call of append whose arguments are args.
func appendCall(args []ssa.Value) *ssa.Call {
	for _, a := range args {
		refs := a.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if c, ok := r.(*ssa.Call); ok && len(c.Call.Args) == len(args) && &c.Call.Args[0] == &args[0] {
				return c
			}
		}
	}
	return nil
}

// appendArgs returns the values a call's variadic argument v holds, in
// order: the stores go/ssa makes into the array it slices. ok is false
// when v is another slice, or when the array is reached otherwise than by
// one store per element and the slice used otherwise than by the one call
// (xs := []T{a, b}; xs[0] = c; append(s, xs...) appends c, b).
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
	calls := 0
	for _, r := range *sl.Referrers() {
		switch r.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			calls++
		default:
			return nil, false
		}
	}
	if calls != 1 {
		return nil, false
	}
	out := make([]ssa.Value, at.Len())
	for _, r := range *arr.Referrers() {
		if r == sl {
			continue
		}
		if _, isDebug := r.(*ssa.DebugRef); isDebug {
			continue
		}
		ia, isIA := r.(*ssa.IndexAddr)
		if !isIA {
			return nil, false
		}
		k, isConst := ia.Index.(*ssa.Const)
		if !isConst {
			return nil, false
		}
		i, exact := constant.Int64Val(k.Value)
		if !exact || i < 0 || i >= at.Len() || out[i] != nil {
			return nil, false
		}
		refs := *ia.Referrers()
		if len(refs) != 1 {
			return nil, false
		}
		st, isStore := refs[0].(*ssa.Store)
		if !isStore || st.Addr != ia {
			return nil, false
		}
		out[i] = st.Val
	}
	for _, v := range out {
		if v == nil {
			return nil, false
		}
	}
	return out, true
}

// setupGrown reports whether x is a slice the set-up grew by append, as a
// goroutine sees it: in a goroutine it is a slice grown by append in
// memory, of that length, whose capacity Go chose.
func setupGrown(x value) bool {
	return x.kind == vSlice && x.sl.grown && x.ptr.obj.owner < 0 && x.sl.dlen == nil && len(x.ptr.path) == 0 && x.ptr.ref == nil
}

// growBound is the number of elements the model keeps for a slice that a
// goroutine grows by append: its array is that many cells, each a register
// of the goroutine, and its length a register in [0, growBound]. Code that
// collects results appends a handful of values (one per worker, per
// error, per round of a loop with a small constant bound); every cell
// multiplies the states a goroutine can be in, so eight keeps the model
// small while covering those loops. A goroutine that appends more leaves
// the length's domain: the answer is inconclusive, naming the length,
// never a verdict; when the length is known statically, the append is
// reported as unsupported instead.
const growBound = 8

// growState is what a process keeps about the slices it grows by append.
type growState struct {
	webs map[*ssa.Function]*sliceWebs
	arrs map[growKey]*object
	// pools are the arrays of an append in a loop to a slice loaded from
	// memory (appendGrownLoaded), keyed by the append.
	pools map[growKey][]*object
}

// growKey names the array of the slices of one web in one frame.
type growKey struct {
	fr   *frame
	root ssa.Value
}

// sliceWebs partitions the slice values of a function into webs: values
// linked by append (its operand and its result) and by phis (the phi and
// its edges). The slices of a web that append grows share one array per
// frame: at most one of them is live at each append that writes it
// (checkWeb), so the array holds that one's elements.
type sliceWebs struct {
	parent  map[ssa.Value]ssa.Value
	order   []ssa.Value               // the values, in the order of the code
	members map[ssa.Value][]ssa.Value // by root
	appends map[ssa.Value]bool        // roots of webs with an append
}

func (w *sliceWebs) find(v ssa.Value) ssa.Value {
	for {
		p, ok := w.parent[v]
		if !ok || p == v {
			return v
		}
		v = p
	}
}

func (w *sliceWebs) union(a, b ssa.Value) {
	for _, v := range []ssa.Value{a, b} {
		if _, ok := w.parent[v]; !ok {
			w.parent[v] = v
			w.order = append(w.order, v)
		}
	}
	ra, rb := w.find(a), w.find(b)
	if ra != rb {
		w.parent[rb] = ra
	}
}

// websOf returns the slice webs of fn.
func (p *proc) websOf(fn *ssa.Function) *sliceWebs {
	if p.grow == nil {
		p.grow = &growState{webs: map[*ssa.Function]*sliceWebs{}, arrs: map[growKey]*object{}}
	}
	if w, ok := p.grow.webs[fn]; ok {
		return w
	}
	w := &sliceWebs{parent: map[ssa.Value]ssa.Value{}, members: map[ssa.Value][]ssa.Value{}, appends: map[ssa.Value]bool{}}
	var appends []ssa.Value
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Phi:
				if _, ok := in.Type().Underlying().(*types.Slice); !ok {
					continue
				}
				w.union(in, in)
				for _, e := range in.Edges {
					if _, isConst := e.(*ssa.Const); !isConst {
						w.union(in, e)
					}
				}
			case *ssa.Call:
				if isAppend(in) {
					appends = append(appends, in)
					w.union(in, in)
					if _, isConst := in.Call.Args[0].(*ssa.Const); !isConst {
						w.union(in, in.Call.Args[0])
					}
				}
			}
		}
	}
	for _, v := range w.order {
		r := w.find(v)
		w.members[r] = append(w.members[r], v)
	}
	for _, a := range appends {
		w.appends[w.find(a)] = true
	}
	p.grow.webs[fn] = w
	return w
}

// isAppend reports whether in is a call of the built-in append.
func isAppend(in ssa.Instruction) bool {
	c, ok := in.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

// isLenCap reports whether in is a call of len or cap: a use of a slice
// that reads its header only, which an append does not change.
func isLenCap(in ssa.Instruction) bool {
	c, ok := in.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && (b.Name() == "len" || b.Name() == "cap")
}

// instrIndex returns the index of in in b.
func instrIndex(b *ssa.BasicBlock, in ssa.Instruction) int {
	for i, x := range b.Instrs {
		if x == in {
			return i
		}
	}
	return -1
}

// usedAfter reports whether a use of v that skip does not excuse can run
// after the point before instruction i of b, before v is defined again.
// A phi uses its edge's value at the end of the predecessor.
func usedAfter(v ssa.Value, b *ssa.BasicBlock, i int, skip func(ssa.Instruction) bool) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	uses := map[*ssa.BasicBlock][]int{}
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok || skip(r) {
			continue
		}
		if phi, ok := r.(*ssa.Phi); ok {
			for k, e := range phi.Edges {
				if e == v {
					pb := phi.Block().Preds[k]
					uses[pb] = append(uses[pb], len(pb.Instrs))
				}
			}
			continue
		}
		rb := r.Block()
		uses[rb] = append(uses[rb], instrIndex(rb, r))
	}
	var defB *ssa.BasicBlock
	defI := -1
	if in, ok := v.(ssa.Instruction); ok {
		defB = in.Block()
		defI = instrIndex(defB, in)
	}
	// scan looks at x from instruction from on: hit when a use comes
	// before a new definition, stop at the definition.
	scan := func(x *ssa.BasicBlock, from int) (hit, stop bool) {
		end := len(x.Instrs)
		if x == defB && defI >= from {
			end, stop = defI-1, true
		}
		for _, u := range uses[x] {
			if u >= from && u <= end {
				return true, true
			}
		}
		return false, stop
	}
	if hit, stop := scan(b, i); hit || stop {
		return hit
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		hit, stop := scan(x, 0)
		if hit {
			return true
		}
		if !stop {
			work = append(work, x.Succs...)
		}
	}
	return false
}

// sliceName names the slice v holds for a message: its Go variable, or
// "the slice".
func sliceName(s *system, fr *frame, v ssa.Value) string {
	d := s.x.debugOf(fr.fn)
	if id := d.ident[v]; id != nil {
		return id.Name
	}
	if phi, ok := v.(*ssa.Phi); ok {
		if dv := s.x.defs[phi.Pos()]; dv != nil && dv.Name() == phi.Comment {
			return dv.Name()
		}
	}
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if dr, ok := r.(*ssa.DebugRef); ok && !dr.IsAddr {
				if id, ok := ast.Unparen(dr.Expr).(*ast.Ident); ok {
					return id.Name
				}
			}
		}
	}
	if e, ok := d.expr[v]; ok {
		txt := types.ExprString(e)
		if call, isCall := ast.Unparen(e).(*ast.CallExpr); isCall && strings.Contains(txt, "…") && len(call.Args) > 0 {
			// append(b.handlers[k], &handler{…}), which ExprString
			// abbreviates: named after the slice appended to.
			txt = types.ExprString(call.Args[0])
		}
		if !strings.Contains(txt, "…") {
			return txt
		}
	}
	return "the slice"
}

// checkWeb refuses an append or a merge that writes the array of v's web
// while another slice of the web may still be used: from the point before
// instruction i of b on, no member other than result may be used, except
// by at and by len and cap. The members may have different arrays in Go
// (append may or may not copy), but share one in the model.
//
// With g set (an append into g), a member already bound to a slice of
// another array that append did not grow is excused: the append leaves that
// array alone, in Go as in the model.
func (p *proc) checkWeb(fr *frame, v ssa.Value, b *ssa.BasicBlock, i int, at ssa.Instruction, result ssa.Value, g *object, pos token.Pos) {
	w := p.websOf(fr.fn)
	skip := func(r ssa.Instruction) bool { return r == at || isLenCap(r) }
	for _, u := range w.members[w.find(v)] {
		if u == result {
			continue
		}
		if x, ok := fr.vals[u]; ok && g != nil && x.kind == vSlice && !x.sl.grown && x.ptr.obj != g {
			continue
		}
		if usedAfter(u, b, i, skip) {
			p.s.unsupported(pos, "%s", aliasMsg(p.s, fr, u))
		}
	}
}

// growArray returns the array of the web of v in fr, private to the
// process, of growBound cells of element type elem.
func (p *proc) growArray(fr *frame, v ssa.Value, elem types.Type) *object {
	w := p.websOf(fr.fn)
	k := growKey{fr, w.find(v)}
	if o, ok := p.grow.arrs[k]; ok {
		return o
	}
	name := sliceName(p.s, fr, v)
	if name == "the slice" {
		name = ""
	}
	o := p.s.newObject(name, types.NewArray(elem, growBound), nil, p.idx)
	o.grower = p.idx + 1
	p.grow.arrs[k] = o
	return o
}

// grownPrivate reports whether x is a slice the process grew by append.
func (p *proc) grownPrivate(x value) bool {
	return x.kind == vSlice && x.sl.grown && !x.sl.fromMem && (x.ptr.obj.owner == p.idx || x.ptr.obj.grower == p.idx+1)
}

// lenReg returns a new register for the length of the grown slice v (in
// [0, growBound]: one more leaves its domain), named after name.
func (p *proc) lenReg(name string, pos token.Pos) int {
	r := p.newReg(name+".len", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, growBound}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{fmt.Sprintf("the length of %s, which goroutine %s grows by append (fencecheck keeps %d elements of a slice grown by append)", name, p.q.Name, growBound), pos}
	return r
}

// appendProc lowers append in a process. Into a slice with room it stores
// the values into the backing array, as Go does. A nil slice, or one
// without room whose array is private to the process, grows: its elements
// move to the array of its web (growArray), of growBound cells. A grown
// slice's length may be known only at run time; appending to it beyond
// growBound leaves the length's domain (inconclusive), or is reported when
// the length is a constant.
func (p *proc) appendProc(fr *frame, in *ssa.Call, cur int) int {
	s := p.s
	pos := in.Pos()
	args := in.Call.Args
	x := s.get(fr, args[0])
	srcs, ok := appendArgs(args[1])
	if !ok {
		y := s.get(fr, args[1])
		if x.kind == vSlice && x.sl.fromMem && x.sl.grown && x.sl.dlen != nil && y.kind == vSlice && y.sl.fromMem && y.sl.grown && y.sl.dlen != nil && !isString(args[1].Type()) {
			// append(s[:i], s[i+1:]...), a removal from a slice in memory.
			return p.appendToLoaded(fr, in, x, appendSrc{spread: &y}, cur)
		}
		s.unsupported(pos, "append of the elements of another slice (only appending values one by one is modelled, and the elements of a slice grown by append loaded from memory to another)")
	}
	n := int64(len(srcs))
	if x.kind != vSlice && x.kind != vNil {
		s.unsupported(pos, "append to %s", describe(x))
	}
	o := Origin{Instr: in}
	if n == 0 {
		fr.vals[in] = x
		return cur
	}
	if x.kind == vSlice && x.sl.fromMem {
		return p.appendLoaded(fr, in, x, srcs, cur)
	} else if x.kind == vSlice && !x.sl.grown && x.sl.dlen != nil {
		// A make whose size takes several values.
		return p.appendWindow(fr, in, x, srcs, cur)
	}
	if x.kind == vSlice && !x.sl.grown && x.sl.len+n <= x.sl.cap {
		// Room in the array: append stores into it, as Go does.
		for i, src := range srcs {
			q := x.ptr.with(step{field: -1, index: int(x.sl.off + x.sl.len + int64(i))})
			cur = p.storeTo(q, s.get(fr, src), src, pos, o, cur)
		}
		fr.vals[in] = sliceVal(x.ptr, x.sl.off, x.sl.len+n, x.sl.cap)
		return cur
	}
	if setupGrown(x) {
		// The set-up's slice grown by append, as a goroutine reads it
		// before any stores another: a slice grown by append in memory,
		// whose capacity is the runtime's choice (room or growth).
		x.sl.fromMem, x.sl.dlen = true, model.C(x.sl.len)
		return p.appendLoaded(fr, in, x, srcs, cur)
	}
	if x.kind == vSlice && x.ptr.obj.owner != p.idx && !p.grownPrivate(x) && !emptyWindow(x) {
		if x.sl.grown {
			s.unsupported(pos, "append in a goroutine to a slice the set-up grew by append (whether it has room is the runtime's choice)")
		}
		s.unsupported(pos, "append beyond the capacity of the slice (length %d + %d > capacity %d: append moves it to an array whose capacity is the runtime's choice; only a goroutine's own slices grow)", x.sl.len, n, x.sl.cap)
	}
	name := sliceName(s, fr, in)
	if name == "the slice" {
		name = sliceName(s, fr, args[0])
	}
	b := in.Block()
	var dst value
	if p.grownPrivate(x) {
		switch args[0].(type) {
		case *ssa.Parameter, *ssa.FreeVar:
			s.unsupported(pos, "append to %s, a slice grown by append that the function received (the caller's slice may be used after it; append where the slice is grown)", name)
		}
		p.checkWeb(fr, in, b, instrIndex(b, in)+1, in, in, x.ptr.obj, pos)
		dst = x
	} else {
		// A nil slice, or a private one without room: Go moves the
		// elements to a new array.
		g := p.growArray(fr, in, s.sliceElem(args[0].Type(), pos))
		p.checkWeb(fr, in, b, instrIndex(b, in)+1, in, in, g, pos)
		if x.kind == vSlice {
			if x.sl.len+n > growBound {
				s.unsupported(pos, "append beyond the %d elements fencecheck keeps for a slice grown by append (length %d + %d)", growBound, x.sl.len, n)
			}
			cur = p.copyElems(g, x, pos, cur)
		}
		dst = sliceVal(pointer{obj: g}, 0, 0, growBound)
		dst.sl.grown = true
		if x.kind == vSlice {
			dst.sl.len = x.sl.len
		}
	}
	var idx model.Expr
	if dst.sl.dlen == nil {
		if dst.sl.len+n > growBound {
			s.unsupported(pos, "append beyond the %d elements fencecheck keeps for a slice grown by append (length %d + %d)", growBound, dst.sl.len, n)
		}
		idx = model.C(dst.sl.len)
		dst.sl.len += n
	} else {
		r := p.lenReg(name, pos)
		cur = p.emit(cur, model.AssignOp(r, model.Bin(model.OpAdd, dst.sl.dlen, model.C(n))), pos, Origin{})
		idx = model.Bin(model.OpSub, model.R(r), model.C(n))
		dst.sl.dlen = model.R(r)
	}
	for i, src := range srcs {
		cur = p.storeElem(dst.ptr, idx, int64(i), n, s.get(fr, src), src, pos, o, cur)
	}
	fr.vals[in] = dst
	return cur
}

// storeElem stores val into element base+i of the grown array g, where
// base is the length before an append of n values: a constant, or an
// expression that is at most growBound-n (the length's domain).
func (p *proc) storeElem(g pointer, base model.Expr, i, n int64, val value, src ssa.Value, pos token.Pos, o Origin, cur int) int {
	if c, ok := base.(model.Const); ok {
		return p.storeTo(g.with(step{field: -1, index: int(c.Value + i)}), val, src, pos, o, cur)
	}
	join := p.newLoc(pos)
	for k := int64(0); k+n <= growBound; k++ {
		at := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, base, model.C(k))), pos, Origin{})
		at = p.storeTo(g.with(step{field: -1, index: int(k + i)}), val, src, pos, o, at)
		p.emitTo(at, model.NopOp(), join, pos, Origin{})
	}
	return join
}

// copyElems copies the elements of x, a slice of an array private to the
// process with a constant length, into the grown array g, from cur.
func (p *proc) copyElems(g *object, x value, pos token.Pos, cur int) int {
	for _, m := range p.copyMoves(g, x, pos) {
		cur = p.emit(cur, model.AssignOp(m[0], model.R(m[1])), pos, Origin{})
	}
	return cur
}

// copyMoves returns the register moves (to, from) that copy the elements
// of x, a private slice of constant length, into g.
func (p *proc) copyMoves(g *object, x value, pos token.Pos) [][2]int {
	var out [][2]int
	if x.sl.len == 0 {
		return nil
	}
	if g.owner < 0 || x.ptr.obj.owner < 0 {
		p.s.unsupported(pos, "append moving the elements of a slice into or out of an array a goroutine stores in memory (only appends to a nil slice or with room are modelled there)")
	}
	elem := g.typ.(*types.Array).Elem()
	for i := int64(0); i < x.sl.len; i++ {
		from := leaves(x.ptr.with(step{field: -1, index: int(x.sl.off + i)}), elem, 32)
		to := leaves(pointer{obj: g}.with(step{field: -1, index: int(i)}), elem, 32)
		if len(from) != len(to) || len(from) > 32 {
			p.s.unsupported(pos, "append moving elements of type %s to a new array", elem)
		}
		for k := range from {
			if t, _ := from[k].target(); classify(t) != leafInt {
				p.s.unsupported(pos, "append moving elements of type %s to a new array (only integers, booleans and strings are copied)", elem)
			}
			out = append(out, [2]int{p.privateReg(to[k]), p.privateReg(from[k])})
		}
	}
	return out
}

// growPhi decides whether phi, a slice that a web with an append merges,
// is a grown slice: its array is the web's (or that of the grown slices
// that reach it) and its length a register. known are the values of the
// edges lowered so far. It sets fr.vals[phi] and the phi's register.
func (p *proc) growPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) bool {
	if _, ok := phi.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	w := p.websOf(fr.fn)
	if !w.appends[w.find(phi)] {
		return false
	}
	var g *object
	for _, v := range known {
		switch {
		case v.kind == vNil:
		case p.grownPrivate(v):
			if g != nil && g != v.ptr.obj {
				p.s.unsupported(phi.Pos(), "merging slices that different functions grew by append")
			}
			g = v.ptr.obj
		case v.kind == vSlice && !v.sl.grown && v.ptr.obj.owner == p.idx && v.sl.dlen == nil:
		default:
			return false
		}
	}
	if g == nil {
		g = p.growArray(fr, phi, p.s.sliceElem(phi.Type(), phi.Pos()))
	}
	r := p.lenReg(sliceName(p.s, fr, phi), phi.Pos())
	st.phiReg[phi] = r
	v := sliceVal(pointer{obj: g}, 0, 0, growBound)
	v.sl.grown, v.sl.dlen = true, model.R(r)
	fr.vals[phi] = v
	return true
}

// growEdge returns the length that the grown phi (of value fv) gets on the
// edge e into b carrying v, and the register moves that copy v's elements
// into the phi's array when v is a private slice of another array.
func (p *proc) growEdge(fr *frame, b *ssa.BasicBlock, phi *ssa.Phi, fv, v value) (model.Expr, [][2]int) {
	s := p.s
	switch {
	case v.kind == vNil:
		return model.C(0), nil
	case v.kind == vSlice && v.sl.grown && v.ptr.obj == fv.ptr.obj:
		if v.sl.dlen != nil {
			return v.sl.dlen, nil
		}
		return model.C(v.sl.len), nil
	case v.kind == vSlice && !v.sl.grown && v.ptr.obj.owner == p.idx && v.sl.dlen == nil:
		if v.sl.len > growBound {
			s.unsupported(phi.Pos(), "a slice of %d elements merged with one grown by append (fencecheck keeps %d elements of a slice grown by append)", v.sl.len, growBound)
		}
		// The elements move to the phi's array: no other slice of the web
		// may see the old one any more.
		p.checkWeb(fr, phi, b, 0, nil, phi, nil, phi.Pos())
		return model.C(v.sl.len), p.copyMoves(fv.ptr.obj, v, phi.Pos())
	}
	s.unsupported(phi.Pos(), "%s, a slice grown by append, merged with %s", sliceName(s, fr, phi), describe(v))
	return nil, nil
}

// A slice grown by append kept in a cell of the goroutine's own: the
// result slot go/ssa gives a function with a defer (return out stores out
// there, and the return after the deferred calls loads it), or a local
// whose address is taken. Its one store keeps the value itself, and a
// load that the store dominates gives it back; any other store of a grown
// slice in memory of the goroutine's own is refused (append may or may not
// move its elements).
type keptSlice struct {
	val   value
	store *ssa.Store
}

// keepGrown keeps val, a slice the goroutine grew by append, stored by in
// into ptr, when ptr is a cell of the goroutine's own that only in stores
// to and loads read, and no append of val's web can follow the store.
func (p *proc) keepGrown(fr *frame, in *ssa.Store, ptr pointer, val value) bool {
	if !p.grownPrivate(val) || ptr.obj.owner < 0 || ptr.dynamic() || len(ptr.path) != 0 {
		return false
	}
	a, ok := in.Addr.(*ssa.Alloc)
	if !ok || !onlyStoredOnceAndLoaded(a) || p.appendFollows(fr, in.Block(), in.Val) {
		return false
	}
	if p.kept == nil {
		p.kept = map[string]keptSlice{}
	}
	p.kept[ptr.key()] = keptSlice{val: val, store: in}
	return true
}

// keptGrown returns the slice kept in ptr (keepGrown) for the load in,
// when the store dominates it.
func (p *proc) keptGrown(ptr pointer, in ssa.Instruction) (value, bool) {
	k, ok := p.kept[ptr.key()]
	if !ok || ptr.dynamic() {
		return value{}, false
	}
	sb, lb := k.store.Block(), in.Block()
	if sb == lb {
		if instrIndex(sb, k.store) < instrIndex(lb, in) {
			return k.val, true
		}
		return value{}, false
	}
	return k.val, sb.Dominates(lb)
}

// onlyStoredOnceAndLoaded reports whether a is stored to by one Store and
// otherwise only loaded (its address goes nowhere else).
func onlyStoredOnceAndLoaded(a *ssa.Alloc) bool {
	stores := 0
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a || r.Val == ssa.Value(a) {
				return false
			}
			stores++
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return stores == 1
}
