package extract

import (
	"fmt"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Pointers held in memory.
//
// An object whose address is stored in memory, merged at a join, compared
// or passed to an atomic pointer operation gets a heap id (1, 2, ...; 0 is
// nil), and its cells become shared variables even when a goroutine
// allocated it. A pointer cell (*T, unsafe.Pointer, atomic.Pointer[T]) that
// a goroutine writes is a shared variable holding such an id, and a pointer
// loaded from one is a run-time value: a register with the set of objects it
// may name. The set is type-based: every object with an id whose type is T
// (for unsafe.Pointer, every object whose address was converted to one).
// Dereferencing a run-time pointer is a case split over that set, with a
// nil-dereference panic when the register is 0.
//
// Which objects need ids, which pointer cells goroutines write and which
// types flow through unsafe.Pointer are only known once the whole system is
// lowered, but are needed before: when an object is allocated, when a cell
// is first loaded. So a system that uses pointers this way is lowered again
// with what the previous round found (a heapHint), until a round finds
// nothing new; its model is the answer.

// maxHeapRounds bounds the rounds of lowering a system's pointers need. A
// pool whose workers a sync.Pool's New makes (each a goroutine with a
// channel of its own, reached through the cache) finds one more escaping
// object a round, and settles in about nine.
const maxHeapRounds = 12

// hintObj is an object of an earlier round that needs a heap id: its
// index in system.objects, its type and its name.
type hintObj struct {
	index int
	typ   types.Type
	name  string
	anon  bool
	box   bool  // the box of an interface value (ifacecells.go)
	val   int64 // what the box holds
	// byValue is set for the box of a struct, array, function or channel
	// (anyvals.go), an allocation like any other.
	byValue bool
	// alias is set for the alias of a location inside an object
	// (interior.go).
	alias *aliasHint
	// wraps and joins are, for an error errors.New, fmt.Errorf or
	// errors.Join made, the positions in the hint's objects of the
	// errors below it (errwrap.go), plus one (0 for none).
	wraps int
	joins []int
	// errKey is, for such an error made in a goroutine, what identifies
	// it across rounds (errwrap.go's errKey), in place of index.
	errKey string
	// msg and minLen are, for such an error, its message (the id of an
	// interned string, stable across rounds: strs) and its least length,
	// for a read of the message lowered before the call that makes it.
	msg, minLen int64
	// timer marks a timer object (timerpool.go).
	timer bool
}

// heapHint is what the previous rounds of lowering found out.
type heapHint struct {
	// phiTimers are, by the position of a channel variable's phi, the
	// timer objects whose channels a loop's back edge brought there, by
	// their positions in objs plus one (timerpool.go).
	phiTimers map[token.Pos][]int
	objs      []hintObj       // in heap-id order
	written   map[string]bool // keys of pointer cells goroutines write
	unsafe    []types.Type    // types of objects converted to unsafe.Pointer
	ifaces    []types.Type    // pointer types converted to interface values
	// splitAt is the instruction of the system function where the setup
	// ends (the go statement, or the call, that started its first
	// goroutine), or nil where it ends after the last go statement: the
	// setup stores to memory a goroutine it started can reach, or waits on
	// a channel.
	splitAt ssa.Instruction
	// splitLoads are the cells the set-up loads between go statements that
	// a goroutine writes: such a load ends the set-up (setupLoadAfterGo).
	splitLoads map[string]bool
	// maps is what the round found of the maps (maps.go).
	maps mapsHint
	// chanCells lists, by the key of a cell of shared memory, the
	// channels goroutines store in it (chanKey), in the order found
	// (chanvals.go).
	chanCells map[string][]chanInfo
	// idCells are the cells of shared memory goroutines store channels
	// known by their identity in (chanvals.go).
	idCells map[string]bool
	// ctxCells lists, by the key of a cell of shared memory, the keys of
	// the contexts goroutines store in it, in the order found
	// (ctxcells.go).
	ctxCells map[string][]string
	// boxGrowth counts the rounds in a row that ended with new boxes of
	// interface values; once they do not settle, intBoxes makes every
	// integer or string computed at run time and converted to an
	// interface a value box of its own (valueboxes.go).
	boxGrowth int
	intBoxes  bool
	// liveSlices are the boxes of slices the round's conversions made
	// (anyslice.go), by boxKey.
	liveSlices map[string]bool
	// anyStrings is set once a round made a string the model does not
	// compute: string comparisons then allow for it (strings.go).
	anyStrings bool
	// randomCells are the fields and variables whose cells hold random
	// numbers, with what made them (randomcells.go).
	randomCells map[*types.Var]string
	// timeOffsets are the constant offsets of the moved time.Time values
	// kept in memory, by id - 1 (clock.go's timeWord).
	timeOffsets []int64
	// nanosCells are the fields whose cells hold nanoseconds of times
	// (nanos.go).
	nanosCells map[*types.Var]bool
	// readOnly are the fields whose cells goroutines do not write, read
	// as the set-up left them, and notReadOnly those found written
	// (readonly.go).
	readOnly, notReadOnly map[*types.Var]bool
	// readOnlyLocals are the variables of the system function among
	// readOnly: strings goroutines look inside (readonly.go).
	readOnlyLocals map[*types.Var]bool
	// inMemory are the spilled variables (spilled.go) kept in memory:
	// another goroutine loads a closure holding values known only at run
	// time to the one that stored it.
	inMemory map[*ssa.Alloc]bool
	// manyKinds are the calls making errors around errors known only at
	// run time that a round found to have too many cases (errwrap.go's
	// errorAlts): refused from then on, so that the rounds settle.
	manyKinds map[token.Pos]bool
	// sent is, by sentKey, what the sends on channels sent, by position
	// in objs plus one; sentSets the same, of the next round's heap
	// (chanflow.go). sentKnown is set when the round that made the hint
	// noted its sends.
	sent      map[string]sentHint
	sentSets  map[string]*sentSet
	sentKnown bool
	// makeLens are the lengths and capacities known only at run time that
	// the domain inference found to take a few values, by the position of
	// their make (refuse.go): the pairs of length and capacity.
	makeLens map[makeSite][][2]int64
	// formatVals are the values of the integers formatted at run time
	// that the domain inference found, by the position of the call
	// (formatsplit.go).
	formatVals map[makeSite][]int64
	// refired are the AfterFunc timers, by the position of the call, that
	// a Reset may arm again while their function still runs: each gets
	// two copies of its function (afterfunc.go).
	refired map[token.Pos]bool
	// noMakeLens: a round with makeLens ended at a construct the lowering
	// refuses, and the makes of run-time size stay refusals.
	noMakeLens bool
	// sizedRefused says, for each make sized in that round, what the
	// lowering refused after it.
	sizedRefused map[makeSite]string
	// strs are the strings the round interned, in the order of their ids:
	// the next round interns them first (strings.go's stringLen).
	strs []string
	// shapes are the shapes of the slice headers goroutines store in
	// memory, and cells the shapes stored in each cell (headers.go).
	shapes []sliceShape
	cells  map[string][]int
}

// makeSized returns the sizes h gives makes of run-time size (none for a
// nil hint).
func (h *heapHint) makeSized() map[makeSite][][2]int64 {
	if h == nil {
		return nil
	}
	return h.makeLens
}

// heapState is the pointer bookkeeping of one round.
type heapState struct {
	hint    *heapHint
	heap    []*object       // by id-1
	ids     map[*object]int // object -> heap id
	pending map[int]*object // objects of the hint not allocated yet, by index
	// keyed are the errors of the hint a goroutine makes, not made yet, by
	// errKey; keyCount counts the errors made of each key (errwrap.go).
	keyed    map[string]*object
	keyCount map[string]int
	// phiTimers are the timer objects whose channels this round's back
	// edges brought to channel variables, by the phi's position.
	phiTimers map[token.Pos][]*object
	// loopMade are the errors of loops' joins and wraps made this round,
	// by key: one for each case, however often the call is lowered.
	loopMade map[string]*object
	written  map[string]bool // pointer cells written by goroutines in this round
	static   map[string]token.Pos
	// setupLoads are the cells the set-up loaded after a go statement,
	// which a started goroutine may reach.
	setupLoads map[string]bool
	unsafe     []types.Type
	ifaces     []types.Type
	boxes      map[string]*object // the boxes of interface values, by boxKey
	// liveSlices are the boxes of slices this round's conversions made.
	liveSlices map[string]bool
	aliases    map[aliasKey]*object    // the aliases of locations inside objects
	makeLens   map[makeSite][][2]int64 // the hint's and those this round found
	formatVals map[makeSite][]int64    // the same, of formatsplit.go
	refired    map[token.Pos]bool      // the hint's and those this round found
	changed    bool                    // this round found something the hint did not say
	why        string
	anyStrings bool // this round made a string the model does not compute
	// randomCells are the fields and variables this round stored random
	// numbers in, with what made them (randomcells.go).
	randomCells map[*types.Var]string
	// timeOffsets are the hint's offsets of moved times, then this
	// round's (clock.go's timeWord).
	timeOffsets []int64
	// nanosCells are the fields this round stored nanoseconds of times in.
	nanosCells map[*types.Var]bool
	// readOnly are the fields this round asked to read as the set-up
	// left them, and notReadOnly those it found a goroutine writes.
	readOnly, notReadOnly map[*types.Var]bool
	readOnlyLocals        map[*types.Var]bool
	// inMemory are the spilled variables this round found another
	// goroutine loads a closure over run-time values from.
	inMemory map[*ssa.Alloc]bool
	// manyKinds are the calls this round found to have too many cases.
	manyKinds map[token.Pos]bool
	// sent is what this round's sends on channels sent (chanflow.go);
	// recvUsed the keys whose receives took the hint's sets, recvWide
	// those whose receives took the candidates, with the most taken.
	sent     map[string]*sentSet
	recvUsed map[string]bool
	recvWide map[string]int
	// nilUsed are the keys whose receives took no nil from the hint.
	nilUsed map[string]bool
	// lenSplit is set once a len of a string known only at run time is
	// lowered, and lenStrs is the fewest strings interned at one (strings.go).
	lenSplit bool
	lenStrs  int64
	shapes   []sliceShape     // the hint's shapes of slice headers, then this round's
	cells    map[string][]int // the shapes this round stores in each cell
	// chanCells are the hint's channels of each cell, then this round's;
	// ctxCells the same of contexts.
	chanCells map[string][]chanInfo
	ctxCells  map[string][]string
	idCells   map[string]bool
}

func (s *system) initHeap(h *heapHint) {
	if h == nil {
		h = &heapHint{written: map[string]bool{}}
	}
	s.heap = heapState{hint: h, ids: map[*object]int{}, pending: map[int]*object{}, keyed: map[string]*object{}, keyCount: map[string]int{}, loopMade: map[string]*object{},
		written: map[string]bool{}, static: map[string]token.Pos{}, unsafe: slices.Clone(h.unsafe),
		ifaces: slices.Clone(h.ifaces), boxes: map[string]*object{}, makeLens: maps.Clone(h.makeLens), formatVals: maps.Clone(h.formatVals), refired: maps.Clone(h.refired),
		shapes: slices.Clone(h.shapes), chanCells: maps.Clone(h.chanCells), ctxCells: maps.Clone(h.ctxCells), timeOffsets: slices.Clone(h.timeOffsets)}
	for _, str := range h.strs {
		s.intern(str)
	}
	defer s.restoreErrorTrees(h)
	defer s.restoreSent(h)
	// Aliases after the objects they lie in, which may come later in the
	// hint (a list's element kept in a map before the list).
	s.heap.heap = make([]*object, len(h.objs))
	for i, ho := range h.objs {
		if ho.alias != nil {
			continue
		}
		o := &object{id: ho.index, seq: unallocated, name: ho.name, typ: ho.typ, owner: -1, anon: ho.anon, byValue: ho.byValue, fromHint: true, timer: ho.timer,
			boxVal: ho.msg, msgMinLen: ho.minLen}
		if ho.box {
			o = newBox(ho.typ, ho.val, ho.name)
			s.heap.boxes[boxKey(ho.typ, ho.val)] = o
		} else if ho.errKey != "" {
			o.id, o.errKey = -2-len(s.heap.keyed), ho.errKey
			s.heap.keyed[ho.errKey] = o
		} else {
			s.heap.pending[ho.index] = o
		}
		s.heap.heap[i] = o
		s.heap.ids[o] = i + 1
	}
	for progress := true; progress; {
		progress = false
		for i, ho := range h.objs {
			if ho.alias == nil || s.heap.heap[i] != nil || s.heap.heap[ho.alias.owner-1] == nil {
				continue
			}
			o := s.restoreAlias(ho)
			s.heap.heap[i], s.heap.ids[o] = o, i+1
			progress = true
		}
	}
	if slices.Contains(s.heap.heap, nil) {
		panic("an alias of the heap hint lies in no object of it")
	}
}

// adopt returns the object the hint reserved for the allocation id, if
// any, made shared; nil when there is none.
func (s *system) adopt(id int, t types.Type) *object {
	o := s.heap.pending[id]
	if o == nil {
		return nil
	}
	delete(s.heap.pending, id)
	if !types.Identical(o.typ, t) {
		s.heapChange("the allocations differ between rounds")
		return nil
	}
	return o
}

func (s *system) heapChange(why string) {
	if !s.heap.changed {
		s.heap.changed, s.heap.why = true, why
	}
}

// idOf returns the heap id of o, giving it one if it has none.
func (s *system) idOf(o *object, pos token.Pos) int64 {
	if id, ok := s.heap.ids[o]; ok {
		return int64(id)
	}
	if _, isArr := o.typ.Underlying().(*types.Array); isArr {
		s.unsupported(pos, "a pointer to an array stored in memory or chosen at run time")
	}
	s.heap.heap = append(s.heap.heap, o)
	s.heap.ids[o] = len(s.heap.heap)
	if o.owner >= 0 {
		// Its cells were registers of the goroutine so far: another round
		// makes it shared from its allocation on.
		s.heapChange("an object of a goroutine escapes")
	} else {
		s.heapChange("an object gets a heap id")
	}
	return int64(len(s.heap.heap))
}

// candidates returns the objects a run-time pointer of type t may name.
func (s *system) candidates(t types.Type) []*object {
	var out []*object
	if it := ifaceOf(t); it != nil {
		for _, o := range s.heap.heap {
			if s.flowsTo(o, it) {
				out = append(out, o)
			}
		}
		return out
	}
	if isUnsafePointer(t) {
		for _, o := range s.heap.heap {
			if !o.byValue && slices.ContainsFunc(s.heap.unsafe, func(u types.Type) bool { return types.Identical(u, o.typ) }) {
				out = append(out, o)
			}
		}
		return out
	}
	elem := ptrElem(t)
	for _, o := range s.heap.heap {
		if elem != nil && !o.byValue && types.Identical(o.typ, elem) {
			out = append(out, o)
		}
	}
	return out
}

// ptrElem returns the element type of a pointer type, or of the value
// type of an atomic.Pointer[T]; nil for unsafe.Pointer and other types.
func ptrElem(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && isNamed(t, "sync/atomic", "Pointer") && n.TypeArgs().Len() == 1 {
		return n.TypeArgs().At(0)
	}
	return nil
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// isPtrCell reports whether a memory cell of type t holds a pointer.
func isPtrCell(t types.Type) bool {
	return classify(t) == leafPointer
}

// refVal returns the run-time pointer value held in a register (or an
// expression) of pointer type t.
func (s *system) refVal(e model.Expr, t types.Type) value {
	if c, ok := e.(model.Const); ok {
		if ifaceOf(t) != nil {
			return s.ifaceFromID(c.Value)
		}
		return s.fromID(c.Value, t)
	}
	return value{kind: vRef, e: e, objs: s.candidates(t), typ: t}
}

// fromID returns the pointer value with a known heap id.
func (s *system) fromID(id int64, t types.Type) value {
	if id == 0 {
		return value{kind: vNil}
	}
	if id < 0 || int(id) > len(s.heap.heap) {
		s.fail(token.NoPos, "internal error: heap id %d of %d", id, len(s.heap.heap))
	}
	return value{kind: vPtr, ptr: s.heap.heap[id-1].target()}
}

// refExpr returns the heap id expression of a pointer value.
func (s *system) refExpr(v value, pos token.Pos) model.Expr {
	switch v.kind {
	case vNil:
		return model.C(0)
	case vRef:
		return v.e
	case vIface:
		return s.ifaceID(v, pos)
	case vPtr:
		s.notePointerValue(v.ptr)
		if len(v.ptr.path) != 0 || v.ptr.ref != nil {
			return s.interiorExpr(v.ptr, pos)
		}
		return model.C(s.idOf(v.ptr.obj, pos))
	case vInt:
		if c, ok := v.constant(); ok && c == 0 {
			return model.C(0)
		}
	case vTicker:
		if v.tick.obj != nil {
			// A timer made once, kept in memory or sent (timerpool.go).
			return model.C(s.idOf(v.tick.obj, pos))
		}
	}
	s.unsupported(pos, "%s where a pointer is expected", describe(v))
	return nil
}

// isRefLike reports whether v can be held as a heap id.
func isRefLike(v value) bool {
	switch v.kind {
	case vNil, vRef:
		return true
	case vIface:
		return boxable(v)
	case vPtr:
		return true // into an object too (interior.go)
	case vInt:
		// A nil unsafe.Pointer constant.
		c, ok := v.constant()
		return ok && c == 0
	}
	return false
}

// deref turns a run-time pointer into a pointer whose object is chosen at
// run time; other values are returned unchanged.
func (s *system) deref(v value, pos token.Pos) value {
	if v.kind != vRef {
		return v
	}
	elem := ptrElem(v.typ)
	if elem == nil {
		s.unsupported(pos, "dereferencing an unsafe.Pointer")
	}
	var rep *object
	var objs, wrong []*object
	for _, o := range v.objs {
		if !types.Identical(o.typ, elem) {
			// Only an unsafe.Pointer conversion gives a pointer an object
			// of another type: dereferencing it is a bad state.
			wrong = append(wrong, o)
			continue
		}
		objs = append(objs, o)
		rep = o
	}
	if rep == nil {
		rep = &object{id: -1, name: "nil", typ: elem, owner: -1}
	}
	return value{kind: vPtr, ptr: pointer{obj: rep, ref: &dynObj{e: v.e, objs: objs, wrong: wrong, typ: elem}}}
}

// convertPtr converts a pointer value between *T and unsafe.Pointer.
func (s *system) convertPtr(v value, from, to types.Type, pos token.Pos) value {
	if v.kind == vNil {
		return v
	}
	if isUnsafePointer(to) {
		// Remember what flows through unsafe.Pointer.
		note := func(t types.Type) {
			if !slices.ContainsFunc(s.heap.unsafe, func(u types.Type) bool { return types.Identical(u, t) }) {
				s.heap.unsafe = append(s.heap.unsafe, t)
				s.heapChange("a new type flows through unsafe.Pointer")
			}
		}
		if v.kind == vPtr && len(v.ptr.path) == 0 && v.ptr.ref == nil {
			note(v.ptr.obj.typ)
		} else if e := ptrElem(from); e != nil {
			note(e)
		}
		e := s.refExpr(v, pos)
		return s.keepRef(e, v, to)
	}
	elem := ptrElem(to)
	if elem == nil {
		s.unsupported(pos, "a conversion from %s to %s", from, to)
	}
	switch v.kind {
	case vPtr:
		if t, _ := v.ptr.target(); !types.Identical(t, elem) && !(isPtrCell(t) && isPtrCell(elem)) {
			// A cell of one pointer type read as another, as
			// (*unsafe.Pointer)(unsafe.Pointer(&q.head)) does, holds the
			// same heap ids; any other reinterpretation is refused.
			s.unsupported(pos, "converting a pointer to %s into %s", t, to)
		}
		return v
	case vRef:
		// The objects of another type stay candidates: the memory the
		// run time may hold there tells which it is, and a dereference
		// of one of them is a bad state (deref).
		return value{kind: vRef, e: v.e, objs: v.objs, typ: to}
	}
	s.unsupported(pos, "a conversion from %s to %s", from, to)
	return value{}
}

// keepRef returns the pointer with heap id e, keeping a static pointer static.
func (s *system) keepRef(e model.Expr, v value, t types.Type) value {
	if v.kind == vPtr {
		return v
	}
	return value{kind: vRef, e: e, objs: s.candidates(t), typ: t}
}

// dynObj is the run-time choice of the object a pointer names: the heap id
// e among objs (0 is nil). wrong are the objects of another type than typ
// that an unsafe.Pointer conversion let it name.
type dynObj struct {
	e     model.Expr
	objs  []*object
	wrong []*object
	typ   types.Type
}

// wrongType returns the condition under which the pointer p names an
// object of another type than its own, and what that bad state is called;
// nil when it cannot.
func (s *system) wrongType(p pointer, pos token.Pos) (model.Expr, string) {
	if p.ref == nil || len(p.ref.wrong) == 0 {
		return nil, ""
	}
	var cond model.Expr
	var names []string
	for _, o := range p.ref.wrong {
		c := model.Bin(model.OpEq, p.ref.e, model.C(s.idOf(o, pos)))
		if cond == nil {
			cond = c
		} else {
			cond = model.Bin(model.OpOr, cond, c)
		}
		if n := "*" + types.TypeString(o.typ, types.RelativeTo(s.x.pkg)); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return cond, fmt.Sprintf("an unsafe.Pointer holding a %s dereferenced as a *%s", strings.Join(names, " or "), types.TypeString(p.ref.typ, types.RelativeTo(s.x.pkg)))
}

// objCases splits a pointer whose object is chosen at run time into one
// static pointer per candidate, with its condition, and the condition under
// which it is nil.
func (s *system) objCases(p pointer, limit int, pos token.Pos) (ptrs []pointer, conds []model.Expr, isNil model.Expr) {
	if p.ref == nil {
		return []pointer{{obj: p.obj}}, []model.Expr{nil}, nil
	}
	if len(p.ref.objs) > limit {
		s.unsupported(pos, "a pointer that may name more than %d objects", limit)
	}
	for _, o := range p.ref.objs {
		ptrs = append(ptrs, o.target())
		conds = append(conds, model.Bin(model.OpEq, p.ref.e, model.C(s.idOf(o, pos))))
	}
	return ptrs, conds, model.Bin(model.OpEq, p.ref.e, model.C(0))
}

// ptrCellLoad reports whether a load of the pointer cell q in a goroutine
// reads a shared variable (true) or the value the setup left there.
func (s *system) ptrCellShared(q pointer, pos token.Pos) bool {
	k := q.key()
	if s.heap.hint.written[k] {
		return true
	}
	if _, ok := s.heap.static[k]; !ok {
		s.heap.static[k] = pos
	}
	return false
}

// wrotePtrCell records that a goroutine writes the pointer cell q with
// a value whose objects it does not say: loads of q name the candidates
// of their type (chanflow.go).
func (s *system) wrotePtrCell(q pointer) {
	s.heap.written[q.key()] = true
	s.noteFlow([]string{cellFlowKey(q)}, nil, false)
}

// wrotePtrValue records that a goroutine writes v, held as e, to the
// pointer cell q.
func (s *system) wrotePtrValue(q pointer, v value, e model.Expr) {
	s.heap.written[q.key()] = true
	k := cellFlowKey(q)
	s.noteValue([]string{k}, v, e)
	if mayBeNil(v, e, false) {
		s.noteNil([]string{k})
	}
}

// staleStatics notes that the round read a pointer or function cell as
// what the set-up left there while a goroutine writes it: another round
// reads the variable, even when this one stopped at what the stale value
// led it to (a call of a nil function).
func (s *system) staleStatics() {
	for k := range s.heap.written {
		if _, ok := s.heap.static[k]; ok && !s.heap.hint.written[k] {
			s.heapChange("a pointer cell read as constant is written")
		}
	}
}

// loadsGoroutinesWrite returns the cells the hint's and this round's
// set-ups loaded between go statements that a goroutine writes, asking
// for another round when this round found one the hint did not have: the
// set-up then ends at that load, and the system function's goroutine
// makes it, where it may race with the goroutine's store (a loop's copy of
// its variable into the next iteration's, after a go statement whose
// goroutine writes it).
func (s *system) loadsGoroutinesWrite() map[string]bool {
	out := maps.Clone(s.heap.hint.splitLoads)
	if len(s.heap.setupLoads) == 0 {
		return out
	}
	written := writtenVars(s.prog)
	for k := range s.heap.setupLoads {
		x, ok := s.vars[k]
		if (ok && written[x] || slices.ContainsFunc(s.cellVars[k], func(x int) bool { return written[x] })) && !out[k] {
			if out == nil {
				out = map[string]bool{}
			}
			out[k] = true
			s.heapChange("the set-up loads between go statements a cell a goroutine writes")
		}
	}
	return out
}

// union returns the entries of the hint's map old and of the round's map
// found, the round's where both have a key; nil when both are empty.
func union[K comparable, V any](old, found map[K]V) map[K]V {
	out := maps.Clone(old)
	for k, v := range found {
		if out == nil {
			out = map[K]V{}
		}
		out[k] = v
	}
	return out
}

// finishHeap checks a round: it returns the hint for another round, or nil
// when this round's model stands. complete is false when the round stopped
// at an unsupported construct: objects it did not reach stay in the hint.
func (s *system) finishHeap(complete bool) *heapHint {
	s.staleStatics()
	if complete {
		s.checkReadOnly()
	}
	splitLoads := s.loadsGoroutinesWrite()
	if len(s.heap.pending)+len(s.heap.keyed) > 0 && complete {
		s.heapChange("an object of the previous round was not allocated")
	}
	if complete && !maps.Equal(s.heap.liveSlices, s.heap.hint.liveSlices) && len(s.heap.liveSlices)+len(s.heap.hint.liveSlices) > 0 {
		s.heapChange("the slices converted to interface values change")
	}
	if complete {
		s.checkSent()
	}
	if s.heap.lenSplit && int64(len(s.strs)) > s.heap.lenStrs {
		s.heapChange("a string is interned after a len of a string known only at run time")
	}
	if !s.heap.changed {
		return nil
	}
	h := &heapHint{strs: s.strs, written: map[string]bool{}, unsafe: s.heap.unsafe, ifaces: s.heap.ifaces, splitAt: s.heap.hint.splitAt, maps: s.nextMapHint(), liveSlices: s.heap.liveSlices,
		anyStrings: s.heap.hint.anyStrings || s.heap.anyStrings, makeLens: s.heap.makeLens, formatVals: s.heap.formatVals, refired: s.heap.refired, noMakeLens: s.heap.hint.noMakeLens, sizedRefused: s.heap.hint.sizedRefused}
	if s.splitReq != nil {
		h.splitAt = s.splitReq
	}
	h.splitLoads = splitLoads
	if s.heap.why == whyNewBox {
		h.boxGrowth = s.heap.hint.boxGrowth + 1
	}
	h.intBoxes = s.heap.hint.intBoxes || h.boxGrowth >= maxBoxGrowth
	h.timeOffsets = s.heap.timeOffsets
	h.nanosCells = union(s.heap.hint.nanosCells, s.heap.nanosCells)
	h.inMemory = union(s.heap.hint.inMemory, s.heap.inMemory)
	h.manyKinds = union(s.heap.hint.manyKinds, s.heap.manyKinds)
	h.notReadOnly = union(s.heap.hint.notReadOnly, s.heap.notReadOnly)
	h.readOnlyLocals = union(s.heap.hint.readOnlyLocals, s.heap.readOnlyLocals)
	for _, m := range []map[*types.Var]bool{s.heap.hint.readOnly, s.heap.readOnly} {
		for f := range m {
			if h.notReadOnly[f] {
				continue
			}
			if h.readOnly == nil {
				h.readOnly = map[*types.Var]bool{}
			}
			h.readOnly[f] = true
		}
	}
	h.randomCells = union(s.heap.hint.randomCells, s.heap.randomCells)
	h.shapes, h.cells = s.heap.shapes, map[string][]int{}
	h.chanCells = s.heap.chanCells
	h.ctxCells = s.heap.ctxCells
	h.idCells = union(s.heap.hint.idCells, s.heap.idCells)
	for _, cells := range []map[string][]int{s.heap.hint.cells, s.heap.cells} {
		for k, shapes := range cells {
			for _, i := range shapes {
				if !slices.Contains(h.cells[k], i) {
					h.cells[k] = append(h.cells[k], i)
				}
			}
		}
	}
	for k := range s.heap.hint.written {
		h.written[k] = true
	}
	for k := range s.heap.written {
		h.written[k] = true
	}
	// The objects this round keeps, in heap order; an alias only with
	// the object it lies in (else it is found again).
	keep := map[*object]bool{}
	for _, o := range s.heap.heap {
		if o.box || o.within != nil {
			continue
		}
		allocated := s.allocated(o)
		reserved := s.heap.pending[o.id] == o || o.errKey != "" && s.heap.keyed[o.errKey] == o
		keep[o] = allocated || !complete && reserved
	}
	at := map[*object]int{} // the position in h.objs, plus one
	n := 0
	for _, o := range s.heap.heap {
		if o.box || keep[o] || o.within != nil && keep[o.within.obj] {
			n++
			at[o] = n
		}
	}
	src := map[int]*object{} // the objects of h.objs, by position
	for _, o := range s.heap.heap {
		switch {
		case at[o] == 0:
			continue
		case o.box:
			h.objs = append(h.objs, hintObj{index: -1, typ: o.typ, name: o.raw, box: true, val: o.boxVal})
		case o.within != nil:
			// Named by the position of the object it lies in, which
			// may come after it.
			h.objs = append(h.objs, hintObj{index: -1, typ: o.typ, name: o.name,
				alias: &aliasHint{owner: at[o.within.obj], path: slices.Clone(o.within.path)}})
		default:
			name := o.name
			if o.named {
				name = o.raw
			}
			ho := hintObj{index: o.id, typ: o.typ, name: name, anon: o.anon, byValue: o.byValue, errKey: o.errKey}
			if s.isErrorObj(o) {
				ho.msg, ho.minLen = o.boxVal, o.msgMinLen
			}
			ho.timer = o.timer
			h.objs = append(h.objs, ho)
			src[len(h.objs)-1] = o
		}
	}
	s.hintErrorTrees(h, src)
	h.sent, h.sentKnown = s.nextSent(at), complete || s.heap.hint.sentKnown
	h.phiTimers = map[token.Pos][]int{}
	for pos, ks := range s.heap.hint.phiTimers {
		for _, k := range ks {
			if k > 0 && k <= len(s.heap.heap) {
				if i := at[s.heap.heap[k-1]]; i > 0 && !slices.Contains(h.phiTimers[pos], i) {
					h.phiTimers[pos] = append(h.phiTimers[pos], i)
				}
			}
		}
	}
	for pos, objs := range s.heap.phiTimers {
		for _, o := range objs {
			if i := at[o]; i > 0 && !slices.Contains(h.phiTimers[pos], i) {
				h.phiTimers[pos] = append(h.phiTimers[pos], i)
			}
		}
	}
	return h
}

// heapLimits is the range of a pointer cell or register: nil and the ids.
func (s *system) heapLimits() (int64, int64) {
	return 0, int64(len(s.heap.heap))
}

func (s *system) heapRoundsError() string {
	return fmt.Sprintf("unsupported in a fencecheck system: pointers whose targets do not settle (%s)", s.heap.why)
}

// exprText returns the source text of the expression that computes v in
// fr's function, when there is one.
func exprText(s *system, fr *frame, v ssa.Value) (string, bool) {
	e, ok := s.x.debugOf(fr.fn).expr[v]
	if !ok {
		return "", false
	}
	var b strings.Builder
	if err := printer.Fprint(&b, s.x.fset, e); err == nil && !strings.Contains(b.String(), "\n") {
		return b.String(), true
	}
	return types.ExprString(e), true
}

// allocExpr names an allocation as the source spells it.
func allocExpr(s *system, fr *frame, in *ssa.Alloc) string {
	if e, ok := exprText(s, fr, in); ok {
		return e
	}
	if d := s.x.defs[in.Pos()]; d != nil {
		return d.Name()
	}
	if a, ok := deref(in.Type()).Underlying().(*types.Array); ok && in.Comment == "makeslice" {
		// The array go/ssa allocates for make([]T, n) of a constant n.
		return fmt.Sprintf("make([]%s, %d)", types.TypeString(a.Elem(), types.RelativeTo(s.x.pkg)), a.Len())
	}
	if in.Comment != "" && token.IsIdentifier(in.Comment) {
		return in.Comment
	}
	return "new(" + types.TypeString(deref(in.Type()), types.RelativeTo(s.x.pkg)) + ")"
}

// storePtr lowers a store of a pointer value into the pointer cell ptr.
func (p *proc) storePtr(ptr pointer, val value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	private := ptr.obj.owner >= 0 && !ptr.dynamic()
	if p.ptrCells == nil {
		p.ptrCells = map[string]string{}
	}
	if private && isHandle(val) && s.noteSpilled(ptr, val, p.idx) {
		// A ticker, a context or a Cond kept in a spilled variable written
		// once (a ticker a deferred closure stops): its loads give it.
		return cur
	}
	if private && !isRefLike(val) {
		// A pointer the model cannot hold as a heap id (into a field, or
		// a function): an error only if the cell is read.
		k := ptr.key()
		if why, read := p.ptrCells[k]; read && why == "" {
			s.refExpr(val, pos)
		}
		p.ptrCells[k] = describe(val)
		return cur
	}
	if val.kind == vPtr && !val.ptr.dynamic() {
		// A spilled variable written once (spilled.go): its loads give
		// this very pointer. The cell is written as any other, for
		// readers that copy it whole.
		s.noteSpilled(ptr, val, p.idx)
	}
	e := s.refExpr(val, pos)
	if private {
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(p.privateReg(q), e)}
		})
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		if q.obj.owner >= 0 {
			// A cell of the goroutine's own that an index known only at
			// run time names: its register, as a constant index's.
			return []model.Op{model.AssignOp(p.privateReg(q), e)}
		}
		s.wrotePtrValue(q, val, e)
		return []model.Op{model.WriteOp(s.varFor(q), e)}
	})
}

// loadPtr lowers a load of the pointer cell ptr of type t into a register.
func (p *proc) loadPtr(fr *frame, in *ssa.UnOp, ptr pointer, t types.Type, pos token.Pos, o Origin, cur int) int {
	s := p.s
	if v, ok := s.spilledAt(ptr, p.idx); ok {
		fr.vals[in] = v
		return cur
	}
	if ptr.obj.owner >= 0 && !ptr.dynamic() {
		if p.ptrCells == nil {
			p.ptrCells = map[string]string{}
		}
		if why := p.ptrCells[ptr.key()]; why != "" {
			fr.vals[in] = opaque(why)
			return cur
		}
		p.ptrCells[ptr.key()] = ""
	}
	reg := p.newReg(p.regName(fr, in), in.Type())
	p.holds(reg, fr, in)
	fr.vals[in] = s.refVal(model.R(reg), t)
	if ptr.obj.owner >= 0 && !ptr.dynamic() {
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(reg, model.R(p.privateReg(q)))}
		})
	}
	v, next := p.readRefCells(cur, ptr, reg, t, pos, o)
	fr.vals[in] = v
	return next
}

// readRefCells emits, from cur, the read of the pointer (or interface)
// cell ptr of type t, shared or, at an index known only at run time, the
// goroutine's own, into register reg. It returns the value read and where
// the read ends: of the shared cells it may read, its objects name what
// was stored there, with what the set-up left in each (chanflow.go).
func (p *proc) readRefCells(cur int, ptr pointer, reg int, t types.Type, pos token.Pos, o Origin) (value, int) {
	s := p.s
	v := s.refVal(model.R(reg), t)
	var keys []string
	var inits []int64
	shared := true
	next := p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		if q.obj.owner >= 0 {
			// A cell of the goroutine's own that an index known only at
			// run time names: its register, as a constant index's.
			shared = false
			return []model.Op{model.AssignOp(reg, model.R(p.privateReg(q)))}
		}
		x := s.varFor(q)
		keys = append(keys, cellFlowKey(q))
		inits = append(inits, s.prog.Vars[x].Init.Value)
		return []model.Op{model.ReadOp(x, reg)}
	})
	if shared && v.kind == vRef && len(keys) > 0 {
		v.objs, v.guessed = s.cellObjs(keys, inits, t)
		// Not nil when the set-up left none and no goroutine stores one.
		v.noNil = !slices.Contains(inits, 0) && s.noNilSent(keys)
	}
	return v, next
}

// externPtr lowers an atomic operation on a pointer cell: the methods of
// atomic.Pointer[T] and the functions on *unsafe.Pointer.
func (p *proc) externPtr(fr *frame, in *ssa.Call, k extKind, vt types.Type, ptr pointer, args []value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	arg := func(i int) model.Expr { return s.refExpr(args[i], pos) }
	var ops func(x int) []model.Op
	switch k {
	case extLoad:
		r := p.resultReg(fr, in, vt)
		ops = func(x int) []model.Op { return []model.Op{model.AtomicReadOp(x, r)} }
		if r >= 0 {
			fr.vals[in] = s.refVal(model.R(r), vt)
		}
	case extStore, extSwap:
		v := arg(1)
		r := -1
		if k == extSwap {
			r = p.resultReg(fr, in, vt)
			if r >= 0 {
				fr.vals[in] = s.refVal(model.R(r), vt)
			}
		}
		ops = func(x int) []model.Op { return []model.Op{model.Exchange(x, r, v)} }
	case extCAS:
		if isUnsafePointer(vt) {
			s.unsafeCompares = append(s.unsafeCompares, pos)
		}
		r := p.resultReg(fr, in, types.Typ[types.Bool])
		old, nw := arg(1), arg(2)
		ops = func(x int) []model.Op { return casOps(x, old, nw, r) }
		if r >= 0 {
			fr.vals[in] = intVal(model.R(r))
		}
	default:
		s.unsupported(pos, "this atomic operation on a pointer")
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		if k != extLoad {
			s.wrotePtrCell(q)
		}
		return ops(s.varFor(q))
	})
}

// setupPtrOp executes an atomic operation on a pointer cell in the setup.
func (s *system) setupPtrOp(k extKind, p pointer, args []value, pos token.Pos) value {
	old, ok := s.mem[p.key()]
	if !ok {
		old = value{kind: vNil}
	}
	switch k {
	case extLoad:
		return old
	case extStore:
		s.mem[p.key()] = args[1]
	case extSwap:
		s.mem[p.key()] = args[1]
		return old
	case extCAS:
		if same(old, args[1]) || old.kind == vNil && args[1].kind == vNil {
			s.mem[p.key()] = args[2]
			return constVal(1)
		}
		if !isRefLike(old) || !isRefLike(args[1]) {
			s.unsupported(pos, "a compare-and-swap the setup cannot decide")
		}
		return constVal(0)
	default:
		s.unsupported(pos, "this atomic operation on a pointer")
	}
	return value{}
}

// inLoop reports whether block b of fr's function may run more than once
// in one execution of the process: it is in a cycle of its function, or a
// call that inlined fr is.
func inLoop(fr *frame, b *ssa.BasicBlock) bool {
	if inCycle(b) {
		return true
	}
	// The function a sync.Once runs runs at most once: loops around its
	// Do do not repeat it.
	for f := fr; f != nil && !f.once; f = f.parent {
		if f.site != nil && inCycle(f.site) {
			return true
		}
	}
	return false
}

// maxPool is the number of objects an allocation that other goroutines may
// reach gets when it runs in a loop.
const maxPool = 3

// allocPool lowers an allocation that runs in a loop and whose objects
// other goroutines may reach: each execution takes the next of maxPool
// objects, counted by a register whose domain ends there. One more
// execution leaves the domain, which the analysis reports as inconclusive,
// naming the count: it never reuses an object. ok is false for an object
// private to the goroutine, which is zeroed on every execution instead.
func (p *proc) allocPool(fr *frame, in *ssa.Alloc, first *object, cur int) (int, bool) {
	objs := p.s.poolObjects(first, p.idx, in.Pos())
	if first.owner >= 0 {
		return cur, false
	}
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	join := p.pickFromPool(objs, r, allocExpr(p.s, fr, in), in.Pos(), cur, nil)
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: in.Type()}
	return join, true
}

// poolObjects returns the maxPool objects of an allocation in a loop of
// process owner, first the one allocated: made in every round, so that the
// objects after them keep their places whether or not this one escapes,
// and shared from the next round on when the first one is.
func (s *system) poolObjects(first *object, owner int, pos token.Pos) []*object {
	objs := []*object{first}
	name := first.name
	if first.anon {
		name = "" // named where a variable first holds it (nameObject)
	}
	for k := 1; k < maxPool; k++ {
		o := s.newObject(name, first.typ, first.decl, owner)
		o.byValue, o.alloc = first.byValue, first.alloc
		objs = append(objs, o)
	}
	if first.owner < 0 {
		for _, o := range objs[1:] {
			if o.owner >= 0 {
				s.poolID(o, pos)
			}
		}
	}
	return objs
}

// poolID returns the heap id of an object of a pool.
func (s *system) poolID(o *object, pos token.Pos) int64 {
	if _, isArr := o.typ.Underlying().(*types.Array); isArr && !o.byValue {
		// The backing array of a slice made in a loop (make([]T, 2)):
		// sliced where it is used (sliceArrayRef).
		s.shareObject(o, pos)
		return int64(s.heap.ids[o])
	}
	if o.byValue {
		return s.valueBoxID(o, pos)
	}
	return s.idOf(o, pos)
}

// pickFromPool emits from cur the choice of the next object of the pool
// objs of an allocation named expr: register r gets its heap id, and fill
// (when set) emits what the execution does with it, from the location it
// is given. It returns the location after the choice.
func (p *proc) pickFromPool(objs []*object, r int, expr string, pos token.Pos, cur int, fill func(o *object, at int) int) int {
	s := p.s
	c := p.poolCounter(expr+".count", fmt.Sprintf("the number of objects %s allocates in a loop of goroutine %s (fencecheck models %d)", expr, p.q.Name, maxPool), pos)
	ids := make([]int64, len(objs))
	for k, o := range objs {
		ids[k] = s.poolID(o, pos)
	}
	var fillK func(k, at int) int
	if fill != nil {
		fillK = func(k, at int) int { return fill(objs[k], at) }
	}
	return p.pickNext(ids, r, c, pos, cur, fillK)
}

// poolCounter makes the register, named name, that counts the runs of an
// allocation in a loop that takes the next of a pool of maxPool (what
// says so in a finding): one more leaves its domain.
func (p *proc) poolCounter(name, what string, pos token.Pos) int {
	c := p.newReg(name, types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[c] = [2]int64{0, maxPool}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[c] = source{what, pos}
	return c
}

// pickNext emits, from cur, the choice of the next of the pool whose
// identities are ids, counted by c, into r (fill, when set, adds what
// the k-th takes), joining at the location it returns; past the last, c
// leaves its domain.
func (p *proc) pickNext(ids []int64, r, c int, pos token.Pos, cur int, fill func(k, at int) int) int {
	join := p.newLoc(pos)
	for k, id := range ids {
		g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, model.R(c), model.C(int64(k)))), pos, Origin{})
		g = p.emit(g, model.AssignOp(r, model.C(id)), pos, Origin{})
		if fill != nil {
			g = fill(k, g)
		}
		p.emitTo(g, model.AssignOp(c, model.C(int64(k+1))), join, pos, Origin{})
	}
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpGe, model.R(c), model.C(int64(len(ids))))), pos, Origin{})
	p.emitTo(g, model.AssignOp(c, model.Bin(model.OpAdd, model.R(c), model.C(1))), join, pos, Origin{})
	return join
}
