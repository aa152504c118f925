package extract

import (
	"fmt"
	"go/build"
	"go/types"
	"math"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// valKind is the kind of an abstract value.
type valKind uint8

const (
	vOpaque  valKind = iota // a value the model cannot represent; why says which
	vInt                    // an integer or boolean: e (a Const when known)
	vPtr                    // a pointer into the shared state or a private object
	vFunc                   // a function or closure: fn, env
	vNil                    // a nil pointer or function
	vTuple                  // the results of a call
	vSlice                  // a slice: ptr to its backing array, and sl
	vAgg                    // a struct or array value: its cells in agg
	vRef                    // a pointer known at run time: heap id e among objs (pointers.go)
	vIface                  // an interface value: dynamic type typ holding env[0] (interfaces.go)
	vFuncRef                // a function value chosen at run time: alts[e-1], nil when e is 0 (funcvals.go)
	vChan                   // a channel the setup made: ch (chans.go)
	vCond                   // a sync.Cond the setup made: cond (cond.go)
	vCondL                  // the address of a Cond's field L: cond
	vCtx                    // a context the setup made: ctx (context.go)
	vCancel                 // the cancel function of ctx
	vTimer                  // a timer's channel: a receive is always ready (context.go)
	vTicker                 // a *time.Ticker
	vTickerC                // the address of a Ticker's field C
	vStop                   // the stop function of a context.AfterFunc: tick (context.go)
	vChanRef                // a channel chosen at run time: alts[e-1], nil when e is 0 (chanvals.go)
	vMap                    // a map: mp (maps.go)
	vMapIter                // the iterator of a range over a map: it
	vMapRef                 // a map chosen at run time: the identity e of a map of type typ, 0 for nil (maps.go)
	vCtxRef                 // a context chosen at run time: alts[e-1], each a vCtx, nil when e is 0 (ctxcells.go)
)

// value is what an SSA value is bound to while a system is lowered: during
// the setup every integer is a constant; inside a process it may be an
// expression over the process's registers.
type value struct {
	kind valKind
	e    model.Expr
	ptr  pointer
	fn   *ssa.Function
	env  []value
	tup  []value
	sl   sliceHdr
	why  string
	// from lists, for an opaque value the package's initialisation computed,
	// the values it was made from that may reach the package's state
	// (pointers, functions, and opaque values made from those): what a call
	// the model does not run may change if it is given this value.
	from []value
	// agg holds, for a struct or array value (vAgg, or an opaque value the
	// package's initialisation loaded), its cells by their key below the
	// aggregate ("", ".0", "[1]"); absent cells are zero.
	agg map[string]value
	// objs and typ are, for a vRef, the objects it may name and its type.
	objs []*object
	typ  types.Type
	// strCell is, for a string loaded from memory, the variable or field
	// of the cell it was loaded from: where the model needs its contents,
	// another round reads that cell as the set-up left it (readonly.go).
	strCell *types.Var
	// noNil is set, for a vRef, when it is not nil: loaded from cells
	// where the set-up left no nil and no goroutine stores one, or
	// received from channels no send gives nil, and used only where the
	// receive got what was sent (a range over the channel) (chanflow.go).
	noNil bool
	// guessed is set, for a vRef, when objs are the candidates of its
	// type because the round before did not say what flows to where it
	// came from (chanflow.go).
	guessed bool
	// box is, for a vIface holding a struct, an array, a function or a
	// channel, the object that holds its payload once it is stored,
	// merged or compared (anyvals.go).
	box *object
	// re is, for an opaque value, the regexp it holds when it was compiled
	// from a constant pattern (regexps.go).
	re *regexp.Regexp
	// anyInt marks an opaque value that may be any non-negative integer
	// of type typ (fastrand's result, runtime.go).
	anyInt bool
	// rand names, for an anyInt value, what made it ("cheaprand()", or
	// "t.idx, which holds cheaprand()").
	rand string
	// uncomputed marks an opaque value that a goroutine got from a call
	// the model does not run: an operator applied to it is a run-time
	// refusal (refuse.go).
	uncomputed bool
	// noise marks an uncomputed random number (rand.Float64's result):
	// arithmetic on it gives another, so that a jitter computed from it
	// reaches the timer or the sleep whose duration it sets; any other
	// use is refused as an uncomputed value's is.
	noise bool
	// positive marks an uncomputed integer known to be at least 1
	// (runtime.NumGoroutine's result): comparisons with constants keep
	// only the answers such values give.
	positive bool
	// minLen is, for a string the model does not compute, a length it
	// has at least (the bytes of a format outside its verbs).
	minLen int64
	// strIDs are, for a string known only at run time that a split made
	// (formatsplit.go), the ids of the interned strings it may be: its
	// concatenations, indexes and len split over those alone.
	strIDs []int64
	// deps are, when depsKnown, the expressions over the goroutine's
	// registers that a string or result the model does not compute is a
	// function of (the arguments of the call that made it): the input of
	// the guesses made of it (guess.go).
	deps      []model.Expr
	depsKnown bool
	// clock is, for an opaque value, the duration or moved time.Time it
	// is on the clock (clock.go).
	clock *clockVal
	// alts are, for a vFuncRef, the functions it may be (for a vChanRef,
	// the channels); ftab, when set,
	// is the table of a function value received from a channel, whose
	// functions are known only once every process is lowered (funcvals.go).
	ftab *funcTable
	// byID is set for a vChanRef received from a channel: e is the
	// channel's identity (chanID), and it may be any channel of type typ.
	byID bool
	// timers is set for a vChanRef some of whose alternatives are timers'
	// channels (a vTimer: var timeout <-chan time.Time; if d > 0 {
	// timeout = time.After(d) }): only received from.
	timers bool
	alts   []value
	// ch is, for a vChan, the channel.
	ch *channel
	// cond is, for a vCond and a vCondL, the condition variable.
	cond *condVar
	// ctx is, for a vCtx and a vCancel, the context; ctxVals, for a
	// vCtx that context.WithValue made, the values it carries, innermost
	// first (its cancellation is ctx's).
	ctx     *ctxNode
	ctxVals *ctxValue
	// tick is, for a vTicker, a vTickerC and a ticker's vTimer, the
	// ticker (nil for a timer's channel).
	tick *ticker
	// mp is, for a vMap, the map; it, for a vMapIter, the iterator.
	mp *mapObj
	it *mapIter
	// taint is, for an opaque value joined at a phi from integers and a
	// value the model does not compute (refuse.go, taintedPhi), the
	// condition that a run came through the latter; e then holds the
	// integer the other edges gave.
	taint model.Expr
}

func intVal(e model.Expr) value { return value{kind: vInt, e: e} }
func constVal(c int64) value    { return value{kind: vInt, e: model.C(c)} }
func opaque(why string) value   { return value{kind: vOpaque, why: why} }

// constant returns the value of a known integer.
func (v value) constant() (int64, bool) {
	if v.kind != vInt {
		return 0, false
	}
	c, ok := v.e.(model.Const)
	return c.Value, ok
}

// same reports whether a and b are certainly the same value.
func same(a, b value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case vInt:
		ca, oka := a.constant()
		cb, okb := b.constant()
		if oka && okb {
			// Two strings the model does not compute are one value
			// only when made of the same inputs.
			return ca == cb && (ca != strAny || sameUncomputed(a, b))
		}
		return a.e == b.e
	case vPtr:
		return a.ptr.equal(b.ptr)
	case vFunc:
		if a.fn != b.fn || len(a.env) != len(b.env) {
			return false
		}
		for i := range a.env {
			if !same(a.env[i], b.env[i]) {
				return false
			}
		}
		return true
	case vNil:
		return true
	case vSlice:
		return a.sl == b.sl && a.ptr.equal(b.ptr)
	case vAgg:
		return sameAgg(a.agg, b.agg)
	case vRef:
		return a.e == b.e
	case vChan:
		return a.ch == b.ch
	case vChanRef:
		if a.e != b.e || len(a.alts) != len(b.alts) {
			return false
		}
		for i := range a.alts {
			if a.alts[i].ch != b.alts[i].ch {
				return false
			}
		}
		return true
	case vCond, vCondL:
		return a.cond == b.cond
	case vCtx, vCancel:
		return a.ctx == b.ctx && a.ctxVals == b.ctxVals
	case vCtxRef:
		return a.e == b.e && slices.EqualFunc(a.alts, b.alts, func(x, y value) bool { return x.ctx == y.ctx })
	case vTimer, vTicker, vTickerC, vStop:
		return a.tick != nil && a.tick == b.tick
	case vIface:
		return types.Identical(a.typ, b.typ) && same(a.env[0], b.env[0])
	case vMap:
		return a.mp == b.mp
	case vMapIter:
		return a.it == b.it
	case vMapRef:
		return a.e == b.e && types.Identical(a.typ, b.typ)
	}
	return false
}

// An object is one allocation: a package-level variable, a variable or
// composite literal of the system function or of a function it calls, or a
// variable private to one process.
// unallocated is the seq of an object of the hint not allocated yet.
const unallocated = math.MaxInt

type object struct {
	// id is the allocation's id, the same in every round (allocID); seq
	// its place among the round's allocations (unallocated for an object
	// of the hint not allocated yet).
	id    int
	seq   int
	name  string
	typ   types.Type // the type of the object (not of a pointer to it)
	decl  *types.Var // the declared variable, if any
	owner int        // -1 for shared state, else the process it is private to
	anon  bool       // no Go name yet (a composite literal or new)
	named bool       // the name is final (see system.display)
	raw   string     // the name before system.display made it unique
	// holder is, for the anonymous backing array of a slice, the cell the
	// setup first stored the slice in: the array is named after it (r.buf).
	holder *pointer
	// box marks the box of an interface value whose dynamic type typ is not
	// a pointer to an object (ifacecells.go): it holds boxVal, and has no
	// cells of its own.
	box    bool
	boxVal int64
	// msgMinLen is, for an error whose message boxVal is a string the
	// model does not compute, a length the message has at least (the
	// bytes of fmt.Errorf's format outside its verbs).
	msgMinLen int64
	// wraps is, for an error fmt.Errorf made with %w, the error it wraps
	// (errwrap.go); boxVal is then the id of its message, as for an error
	// errors.New made.
	wraps *object
	// joins is, for an error errors.Join made, the errors it holds, nil
	// ones left out (errwrap.go).
	joins []*object
	// errKey identifies, for an error a goroutine makes, the object across
	// rounds of lowering (errwrap.go).
	errKey string
	// fromHint marks an object the round before reserved (initHeap),
	// which holds the tree of errors that round gave it.
	fromHint bool
	// timer marks a timer object, which time.NewTimer or NewTicker made
	// (timerpool.go); a time.Timer the program makes itself is not one.
	timer bool
	// byValue marks the box of an interface value holding a struct, an
	// array, a function or a channel (anyvals.go): its dynamic type is typ
	// and its cells hold the payload, written once when it is made.
	byValue bool
	// alloc is the instruction that allocated a goroutine's own object.
	alloc *ssa.Alloc
	// within is, for an alias (interior.go), the location inside another
	// object that this heap entry stands for.
	within *pointer
	// loopMade marks the array of a make that a goroutine runs in a loop:
	// one object stands for the array of every iteration.
	loopMade bool
	// grower is 1 + the process whose appends grow the array (slices.go),
	// which stays its grower once a store shares it (headers.go).
	grower int
}

// A step selects a part of an aggregate: a field, a constant index, or an
// index known only at run time (dyn, valid in [lo, n) of an array: the whole
// array, or the window of a slice over its backing array).
type step struct {
	field int        // >= 0: a struct field
	index int        // field < 0 and dyn == nil: a constant array index
	dyn   model.Expr // a run-time index
	lo, n int        // the valid indexes for dyn
	hi    model.Expr // if set, dyn is valid only below it too (a length known at run time)
	// cut, when set, is the end of the valid indexes, of which only
	// [lo, n) are split into cases: an index in [n, cut) below hi is
	// refused where a run reaches it (a long window, headers.go).
	cut int
}

// A pointer points to a part of an object. With ref set, the object is
// chosen at run time (pointers.go) and obj stands for any of them.
type pointer struct {
	obj  *object
	ref  *dynObj
	path []step
}

func (p pointer) equal(q pointer) bool {
	if p.obj != q.obj || len(p.path) != len(q.path) || p.ref != q.ref {
		return false
	}
	for i := range p.path {
		a, b := p.path[i], q.path[i]
		if a.field != b.field || a.index != b.index || a.dyn != b.dyn {
			return false
		}
	}
	return true
}

// sameAddress reports whether the static pointers p and q, into one
// object, have one address (gc's layout): a struct and its first field, an
// array and its first element, as unsafe.Pointer compares them.
func (p pointer) sameAddress(q pointer) bool {
	return p.obj == q.obj && p.ref == nil && q.ref == nil && p.offset() == q.offset()
}

// offset returns the byte offset of a static pointer's target in its
// object, as gc lays it out on the build's architecture.
func (p pointer) offset() int64 {
	sizes := types.SizesFor("gc", build.Default.GOARCH)
	t, off := p.obj.typ, int64(0)
	for _, s := range p.path {
		switch u := t.Underlying().(type) {
		case *types.Struct:
			fields := make([]*types.Var, u.NumFields())
			for i := range fields {
				fields[i] = u.Field(i)
			}
			off += sizes.Offsetsof(fields)[s.field]
			t = u.Field(s.field).Type()
		case *types.Array:
			off += int64(s.index) * sizes.Sizeof(u.Elem())
			t = u.Elem()
		}
	}
	return off
}

func (p pointer) with(s step) pointer {
	path := make([]step, len(p.path), len(p.path)+1)
	copy(path, p.path)
	return pointer{obj: p.obj, ref: p.ref, path: append(path, s)}
}

func (p pointer) dynamic() bool {
	if p.ref != nil {
		return true
	}
	for _, s := range p.path {
		if s.dyn != nil {
			return true
		}
	}
	return false
}

// key identifies the memory cell a static pointer names.
func (p pointer) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", p.obj.id)
	for _, s := range p.path {
		if s.field >= 0 {
			fmt.Fprintf(&b, ".%d", s.field)
		} else {
			fmt.Fprintf(&b, "[%d]", s.index)
		}
	}
	return b.String()
}

// name spells a static pointer's target the way Go code names it: x, l.flag[0].
func (p pointer) name() string {
	var b strings.Builder
	b.WriteString(p.obj.name)
	t := p.obj.typ
	for _, s := range p.path {
		switch u := t.Underlying().(type) {
		case *types.Struct:
			f := u.Field(s.field)
			b.WriteString("." + f.Name())
			t = f.Type()
		case *types.Array:
			fmt.Fprintf(&b, "[%d]", s.index)
			t = u.Elem()
		}
	}
	return b.String()
}

// target returns the type of the pointed-to cell and the declared variable
// (field or variable) that a //fencecheck:range on it would annotate.
func (p pointer) target() (types.Type, *types.Var) {
	t, decl := p.obj.typ, p.obj.decl
	for _, s := range p.path {
		switch u := t.Underlying().(type) {
		case *types.Struct:
			f := u.Field(s.field)
			t, decl = f.Type(), f
		case *types.Array:
			t = u.Elem()
		}
	}
	return t, decl
}

// cases expands a pointer with run-time indexes into the static pointers it
// may name, each with the condition (nil for "always") under which it does,
// and the condition under which the index is out of range (nil if never).
func (p pointer) cases(limit int) (ptrs []pointer, conds []model.Expr, outOfRange model.Expr, ok bool) {
	ptrs = []pointer{{obj: p.obj}}
	conds = []model.Expr{nil}
	for _, s := range p.path {
		if s.dyn == nil {
			for i := range ptrs {
				ptrs[i] = ptrs[i].with(s)
			}
			continue
		}
		end := s.n
		if s.cut > 0 {
			end = s.cut
		}
		oor := model.Bin(model.OpOr, model.Bin(model.OpLt, s.dyn, model.C(int64(s.lo))), model.Bin(model.OpGe, s.dyn, model.C(int64(end))))
		if s.hi != nil {
			oor = model.Bin(model.OpOr, oor, model.Bin(model.OpGe, s.dyn, s.hi))
		}
		if outOfRange == nil {
			outOfRange = oor
		} else {
			outOfRange = model.Bin(model.OpOr, outOfRange, oor)
		}
		var np []pointer
		var nc []model.Expr
		for i := range ptrs {
			for k := s.lo; k < s.n; k++ {
				np = append(np, ptrs[i].with(step{field: -1, index: k}))
				c := model.Bin(model.OpEq, s.dyn, model.C(int64(k)))
				if conds[i] != nil {
					c = model.Bin(model.OpAnd, conds[i], c)
				}
				nc = append(nc, c)
			}
		}
		if len(np) > limit {
			return nil, nil, nil, false
		}
		ptrs, conds = np, nc
	}
	return ptrs, conds, outOfRange, true
}

// beyondCases returns when an index of p falls in the part of a long
// window that is not split into cases (step.cut), nil when none can.
func (p pointer) beyondCases() model.Expr {
	var out model.Expr
	for _, s := range p.path {
		if s.dyn == nil || s.cut == 0 {
			continue
		}
		c := model.Bin(model.OpAnd, model.Bin(model.OpGe, s.dyn, model.C(int64(s.n))), model.Bin(model.OpLt, s.dyn, model.C(int64(s.cut))))
		if s.hi != nil {
			c = model.Bin(model.OpAnd, c, model.Bin(model.OpLt, s.dyn, s.hi))
		}
		out = orElse(out, c)
	}
	return out
}

// leafKind classifies the type of a memory cell.
type leafKind uint8

const (
	leafOther     leafKind = iota
	leafInt                // an integer or boolean
	leafAtomic             // a sync/atomic typed value (atomic.Int32, atomic.Bool, ...)
	leafWaitGroup          // sync.WaitGroup: its counter
	leafMutex              // sync.Mutex: 0 unlocked, 1 locked
	leafPointer            // a pointer, unsafe.Pointer, atomic.Pointer[T], an interface or atomic.Value (pointers.go)
	leafRWMutex            // sync.RWMutex: -1 write-locked, else the number of readers
	leafOnce               // sync.Once: 0 not started, 1 running, 2 done
)

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// atomicKind returns the value type of a sync/atomic typed value.
func atomicKind(t types.Type) (*types.Basic, bool) {
	for _, n := range []struct {
		name string
		kind types.BasicKind
	}{{"Int32", types.Int32}, {"Int64", types.Int64}, {"Uint32", types.Uint32}, {"Uint64", types.Uint64}, {"Uintptr", types.Uintptr}, {"Bool", types.Bool}} {
		if isNamed(t, "sync/atomic", n.name) {
			return types.Typ[n.kind], true
		}
	}
	return nil, false
}

func classify(t types.Type) leafKind {
	if _, ok := atomicKind(t); ok {
		return leafAtomic
	}
	switch {
	case isNamed(t, "sync", "WaitGroup"):
		return leafWaitGroup
	case isNamed(t, "sync", "Mutex"):
		return leafMutex
	case isNamed(t, "sync", "RWMutex"):
		return leafRWMutex
	case isNamed(t, "sync", "Once"):
		return leafOnce
	case isNamed(t, "sync/atomic", "Pointer"), isNamed(t, "sync/atomic", "Value"):
		return leafPointer
	case isTime(t):
		return leafInt // a reading of the clock (clock.go)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return leafPointer
		}
		if u.Info()&(types.IsInteger|types.IsBoolean|types.IsString) != 0 {
			return leafInt // a string is an interned id (strings.go)
		}
		if u.Info()&types.IsFloat != 0 {
			return leafInt // the bits of a float (floats.go)
		}
	case *types.Pointer, *types.Interface:
		return leafPointer // an interface value is a heap id (ifacecells.go)
	}
	return leafOther
}

// typeRange is the range of values of an integer or boolean type, with
// ok false for types whose range is all of int64 or beyond it.
func typeRange(t types.Type) (lo, hi int64, ok bool) {
	if b, isAtomic := atomicKind(t); isAtomic {
		t = b
	}
	if isNamed(t, "sync", "Mutex") {
		return 0, 1, true
	}
	if isTime(t) {
		return 0, timeBase*(maxTimeOffsets+1) - 1, true
	}
	if lo, hi, ok := syncRange(t); ok {
		return lo, hi, true
	}
	b, isBasic := t.Underlying().(*types.Basic)
	if !isBasic {
		return 0, 0, false
	}
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return 0, 1, true
	case types.Int8:
		return math.MinInt8, math.MaxInt8, true
	case types.Int16:
		return math.MinInt16, math.MaxInt16, true
	case types.Int32, types.UntypedRune:
		return math.MinInt32, math.MaxInt32, true
	case types.Uint8:
		return 0, math.MaxUint8, true
	case types.Uint16:
		return 0, math.MaxUint16, true
	case types.Uint32:
		return 0, math.MaxUint32, true
	case types.Int, types.Int64, types.UntypedInt:
		return math.MinInt64, math.MaxInt64, true
	case types.Uint, types.Uint64, types.Uintptr, types.Float64:
		// The model holds them as their int64 bit patterns (ints.go,
		// floats.go).
		return math.MinInt64, math.MaxInt64, true
	case types.Float32:
		return 0, math.MaxUint32, true
	}
	return 0, 0, false
}

// isIntegral reports whether t (its elements, for an array) is an integer
// or boolean type, or a sync/atomic type of one.
func isIntegral(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if ok {
		return b.Info()&(types.IsInteger|types.IsBoolean) != 0
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return isIntegral(a.Elem())
	}
	if _, ok := atomicKind(t); ok {
		return true
	}
	return false
}

// isBool reports whether t is a boolean type (or atomic.Bool).
func isBool(t types.Type) bool {
	if b, ok := atomicKind(t); ok {
		t = b
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// sameUncomputed reports whether a and b, strings the model does not
// compute, are known to be the same: of the same call's result, with the
// same inputs and least length.
func sameUncomputed(a, b value) bool {
	if a.why != b.why || a.minLen != b.minLen || a.depsKnown != b.depsKnown || len(a.deps) != len(b.deps) {
		return false
	}
	for i := range a.deps {
		if a.deps[i] != b.deps[i] {
			return false
		}
	}
	return true
}
