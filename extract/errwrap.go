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

// Errors that wrap another (fmt.Errorf with %w).
//
// fmt.Errorf whose format has one %w verb, of nil or an error made by
// errors.New or by such a fmt.Errorf (a sentinel, context.Canceled, an error
// a goroutine made), makes an object of a type of the extractor's own,
// *fmt.wrapError, whose message is a string the model does not compute and
// which remembers the error it wraps. Where that error is known only at run
// time, the call splits over what it is, with an object for each error
// errors.New made, and a run-time refusal for the others (makeError).
// errors.Is follows the chain: err is target, or err wraps, directly or not,
// an error that is. Otherwise it is as errors.New's errors are (errsent.go):
// a fresh object per call, a pool in a goroutine's loop, compared by
// identity, Error giving its message. An operand of %w of another type
// (whose Error method formatting calls, which may read the system's memory),
// or a format with more than one %w, is not modelled: the result is an error
// the model does not compute.

// wrapType returns the type of the errors fmt.Errorf makes with %w.
func (x *extractor) wrapType() *types.Named {
	if x.wrapErrType != nil {
		return x.wrapErrType
	}
	named, recv := newErrorType("fmt", "wrapError", func(pkg *types.Package) []*types.Var {
		return []*types.Var{
			types.NewField(token.NoPos, pkg, "msg", types.Typ[types.String], false),
			types.NewField(token.NoPos, pkg, "err", errorType, false),
		}
	})
	pkg := recv.Pkg()
	res := types.NewTuple(types.NewVar(token.NoPos, pkg, "", errorType))
	named.AddMethod(types.NewFunc(token.NoPos, pkg, "Unwrap", types.NewSignatureType(recv, nil, nil, nil, res, false)))
	x.wrapErrType = named
	return named
}

// isMadeError reports whether t is the type of the objects errors.New,
// fmt.Errorf or errors.Join makes (errorString, wrapError or joinError).
func (x *extractor) isMadeError(t types.Type) bool {
	return types.Identical(t, x.errorType()) || types.Identical(t, x.wrapType()) || types.Identical(t, x.joinType())
}

// wrapArg returns the index, among the arguments after the format, of the
// operand of the one %w verb of format. ok is false when format has no %w,
// more than one, or an explicit argument index or a * width or precision
// (which this count of operands does not follow).
func wrapArg(format string) (int, bool) {
	idx, n, found := -1, 0, false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return 0, false
		}
		switch format[i] {
		case '%':
			continue
		case '[', '*':
			return 0, false
		case 'w':
			if found {
				return 0, false
			}
			idx, found = n, true
		}
		n++
	}
	return idx, found
}

// wrapped returns the object of an error the lowering knows that fmt.Errorf
// may wrap, nil for nil. ok is false for any other value.
func (s *system) wrapped(v value) (*object, bool) {
	switch v.kind {
	case vNil:
		return nil, true
	case vIface:
		pl := v.env[0]
		if pl.kind == vPtr && !pl.ptr.dynamic() && len(pl.ptr.path) == 0 && pl.ptr.ref == nil && (s.isErrorObj(pl.ptr.obj) || s.isErrorLeaf(pl.ptr.obj)) {
			return pl.ptr.obj, true
		}
	}
	return nil, false
}

// wrapSpec fills in spec for fmt.Errorf(format, args...) with a %w verb, in
// a frame fr whose values the operand has; ok is false when it is not
// modelled.
func (s *system) wrapSpec(spec *errSpec, format string, args ssa.Value, fr *frame) bool {
	k, ok := wrapArg(format)
	if !ok || fr == nil {
		return false
	}
	vals, ok := appendArgs(args)
	if !ok || k >= len(vals) {
		return false
	}
	x, ok := fr.vals[vals[k]]
	if !ok {
		return false
	}
	spec.wrap = true
	if x.kind == vRef {
		// Known only at run time: makeError splits over what it is.
		spec.refs, spec.nonNil = []*value{&x}, []bool{testedNonNil(vals[k], args) || x.noNil}
		return true
	}
	o, ok := s.wrapped(x)
	spec.wraps = o
	return ok
}

// joinSpec returns what errors.Join(args...) makes, in a frame fr whose
// values the operands have: an error holding the operands that are not
// nil, or nil when every one is. Each operand is nil or an error the
// lowering knows (wrapped), or, in a goroutine, one known only at run time
// (makeError splits over it); ok is false for any other.
func (s *system) joinSpec(args ssa.Value, fr *frame) (errSpec, bool) {
	vals, ok := appendArgs(args)
	if !ok || fr == nil {
		return errSpec{}, false
	}
	spec := errSpec{msg: strAny, name: "errors.Join(...)", join: true}
	for _, v := range vals {
		x, known := fr.vals[v]
		if c, isConst := v.(*ssa.Const); isConst && c.Value == nil {
			x, known = value{kind: vNil}, true
		}
		if mi, isIface := v.(*ssa.MakeInterface); !known && isIface {
			x, known = fr.vals[mi.X], true
		}
		if !known {
			return errSpec{}, false
		}
		if x.kind == vRef {
			spec.refs, spec.nonNil = append(spec.refs, &x), append(spec.nonNil, testedNonNil(v, args) || x.noNil)
			spec.refAt = append(spec.refAt, len(spec.joins))
			continue
		}
		o, ok := s.wrapped(x)
		if !ok {
			return errSpec{}, false
		}
		if o != nil {
			spec.joins = append(spec.joins, o)
		}
	}
	return spec, true
}

// testedNonNil reports whether v is not nil where at, an instruction,
// runs: a block on the way from the function's entry to at is entered
// only from a branch that tested v against nil (if err != nil).
func testedNonNil(v, at ssa.Value) bool {
	in, ok := at.(ssa.Instruction)
	if !ok {
		return false
	}
	return nonNilAt(v, in)
}

// nonNilAt is testedNonNil at the instruction in.
func nonNilAt(v ssa.Value, in ssa.Instruction) bool {
	return branchTested(in, func(cond ssa.Value, taken bool) bool {
		cmp, ok := cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL {
			return false
		}
		other := cmp.Y
		if cmp.Y == v {
			other = cmp.X
		} else if cmp.X != v {
			return false
		}
		if c, isConst := other.(*ssa.Const); !isConst || !c.IsNil() {
			return false
		}
		return taken == (cmp.Op == token.NEQ)
	})
}

// usedOnlyIfOK reports whether every use of the value of recv, a comma-ok
// receive (a range over a channel), runs only where the receive got a
// value that was sent: under a branch taken on its ok.
func usedOnlyIfOK(recv *ssa.UnOp) bool {
	var okVal, val ssa.Value
	for _, r := range *recv.Referrers() {
		x, ok := r.(*ssa.Extract)
		if !ok {
			return false
		}
		switch x.Index {
		case 0:
			val = x
		case 1:
			okVal = x
		}
	}
	if val == nil {
		return true
	}
	if okVal == nil {
		return false
	}
	for _, use := range *val.Referrers() {
		if !branchTested(use, func(cond ssa.Value, taken bool) bool { return taken && cond == okVal }) {
			return false
		}
	}
	return true
}

// branchTested reports whether a block on the way from the function's
// entry to in is entered only from a branch whose condition and taken arm
// (true: the condition holds) test accepts.
func branchTested(in ssa.Instruction, test func(cond ssa.Value, taken bool) bool) bool {
	if in.Block() == nil {
		return false
	}
	for b := in.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		br, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok || pred.Succs[0] == pred.Succs[1] {
			continue
		}
		if test(br.Cond, pred.Succs[0] == b) {
			return true
		}
	}
	return false
}

// joinType returns the type of the errors errors.Join makes.
func (x *extractor) joinType() *types.Named {
	if x.joinErrType != nil {
		return x.joinErrType
	}
	named, recv := newErrorType("errors", "joinError", func(pkg *types.Package) []*types.Var {
		return []*types.Var{types.NewField(token.NoPos, pkg, "msg", types.Typ[types.String], false)}
	})
	pkg := recv.Pkg()
	res := types.NewTuple(types.NewVar(token.NoPos, pkg, "", types.NewSlice(errorType)))
	named.AddMethod(types.NewFunc(token.NoPos, pkg, "Unwrap", types.NewSignatureType(recv, nil, nil, nil, res, false)))
	x.joinErrType = named
	return named
}

// errorTree returns o and the errors below it, each once, o first: the
// error it wraps and those errors.Join joined in it, and theirs; the tree
// errors.Is walks.
func errorTree(o *object) []*object {
	var out []*object
	seen := map[*object]bool{}
	var walk func(o *object)
	walk = func(o *object) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		out = append(out, o)
		walk(o.wraps)
		for _, j := range o.joins {
			walk(j)
		}
	}
	walk(o)
	return out
}

// maxErrorDepth bounds the depth of the trees of the errors a goroutine
// makes around errors known only at run time: a sentinel, wrapped or
// joined three times (a retry loop's last error wrapped again). Each
// round of lowering may make the errors of one more level (the objects it
// makes are the candidates of the next round's splits); the bound makes
// them settle. A deeper error is a run-time refusal.
const maxErrorDepth = 4

// errorDepth is the depth of o's tree: 1 for an error that holds none;
// maxErrorDepth for one whose objects, reserved by the rounds before, hold
// each other (a cycle no run makes: Go's errors are fresh).
func errorDepth(o *object) int {
	var depth func(o *object, on []*object) int
	depth = func(o *object, on []*object) int {
		if slices.Contains(on, o) || len(on) >= maxErrorDepth {
			return maxErrorDepth
		}
		d := 0
		for _, c := range append([]*object{o.wraps}, o.joins...) {
			if c != nil {
				d = max(d, depth(c, append(on, o)))
			}
		}
		return min(d+1, maxErrorDepth)
	}
	return depth(o, nil)
}

// unwrapsTo is the condition that errors.Is finds target (its heap id t)
// below the top of the chain of err (its heap id e, its candidates objs):
// err is a wrapping error whose chain holds target. Nil when no candidate
// wraps an error.
func (s *system) unwrapsTo(e, t model.Expr, objs []*object, pos token.Pos) model.Expr {
	var cond model.Expr
	for _, w := range objs {
		below := errorTree(w)[1:]
		if len(below) == 0 {
			continue
		}
		var holds model.Expr
		for _, c := range below {
			holds = orElse(holds, model.Bin(model.OpEq, t, model.C(s.idOf(c, pos))))
		}
		is := model.Bin(model.OpAnd, model.Bin(model.OpEq, e, model.C(s.idOf(w, pos))), holds)
		cond = orElse(cond, is)
	}
	return cond
}

// makeError lowers, in a goroutine, a call of errors.New, fmt.Errorf or
// errors.Join that makes the error spec describes. Outside a loop, with
// the errors it wraps or joins known, it is one object, made for the call
// (errsent.go); in a loop it is the next of a pool of them on each
// execution (errorPool). Where an error wrapped or joined is known only at
// run time, the call splits over what each is: nil or an object, with an
// object, or a pool, for each combination (errors.Join of only nil errors
// is nil).
func (p *proc) makeError(fr *frame, in *ssa.Call, spec errSpec, inLoop bool, cur int) int {
	s := p.s
	if len(spec.refs) == 0 && (!inLoop || spec.isNil() || spec.join || spec.wrap) {
		switch {
		case !used(in):
		case spec.isNil():
			fr.vals[in] = value{kind: vNil}
		default:
			// In a loop, a join or a wrap: one for the case (loopIdentity).
			fr.vals[in] = errIface(s.keyedError(spec, p.idx, inLoop))
		}
		return cur
	}
	pos := in.Pos()
	alts := s.errorAlts(spec, inLoop, pos, p.idx, func(others model.Expr, why string) {
		p.refuseAt(p.emit(cur, model.GuardOp(others), pos, Origin{}), why, pos)
	})
	if len(alts) == 0 {
		return -1
	}
	r := p.newReg(p.regName(fr, in), errorType)
	p.holds(r, fr, in)
	join := p.newLoc(pos)
	var objs []*object
	for _, a := range alts {
		g := cur
		if a.cond != nil {
			g = p.emit(cur, model.GuardOp(a.cond), pos, Origin{})
		}
		switch {
		case a.spec.isNil():
			p.emitTo(g, model.AssignOp(r, model.C(0)), join, pos, Origin{})
		case !inLoop || a.spec.join || a.spec.wrap:
			// One object for the call; in a loop, a join or a wrap is one
			// for each case, whatever the iteration (loopIdentity below).
			o := s.keyedError(a.spec, p.idx, inLoop)
			s.noteIface(types.NewPointer(o.typ))
			if slices.Contains(errorTree(o)[1:], o) {
				// The object the rounds before reserved for the call is
				// one it wraps: no run makes that.
				p.refuseAt(g, "an error wrapped (%w) or joined in itself", pos)
				continue
			}
			objs = append(objs, o)
			p.emitTo(g, model.AssignOp(r, model.C(s.idOf(o, pos))), join, pos, Origin{})
		default:
			pool := s.errorPool(a.spec, pos, p.idx)
			objs = append(objs, pool...)
			p.emitTo(p.pickFromPool(pool, r, a.spec.name, pos, g, nil), model.NopOp(), join, pos, Origin{})
		}
	}
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: errorType, guessed: slices.ContainsFunc(spec.refs, func(w *value) bool { return w.guessed })}
	return join
}

// reservedFor reports whether o, an error of the round before that this
// round has not made yet, is one a call like spec's makes in process
// proc: outside a loop, the call's own errors, which no run gives it (they
// would only add cases). Another process's, made by the same code (two
// goroutines started in a loop), are not: a run gives them.
func (s *system) reservedFor(o *object, spec errSpec, proc int) bool {
	made := s.allocated(o)
	return !made && (o.name == spec.name || o.raw == spec.name) && strings.Contains(o.errKey, makerTag(proc))
}

// makerTag is the part of an error's key that names the process that
// made it.
func makerTag(proc int) string { return fmt.Sprintf("#p%d@", proc) }

// errAlt is one case of a call of makeError: the condition on the errors
// known only at run time, and the error made then.
type errAlt struct {
	cond model.Expr
	spec errSpec
}

// errorAlts returns the cases of spec over what each of its errors known
// only at run time is: nil, or an error errors.New, fmt.Errorf or
// errors.Join made whose tree is less than maxErrorDepth deep. refuse is
// called with the condition of every other value of one, and why; with
// more than maxCases cases, with the condition true, and none is returned.
func (s *system) errorAlts(spec errSpec, inLoop bool, pos token.Pos, proc int, refuse func(others model.Expr, why string)) []errAlt {
	refs, nonNil, refAt := spec.refs, spec.nonNil, spec.refAt
	spec.refs, spec.nonNil, spec.refAt = nil, nil, nil
	fixed := len(spec.joins)
	alts := []errAlt{{spec: spec}}
	for i, w := range refs {
		opts := []errOption{{cond: model.Bin(model.OpEq, w.e, model.C(0))}}
		if i < len(nonNil) && nonNil[i] {
			opts = nil // tested: not nil here
		}
		var others, deep model.Expr
		for _, o := range w.objs {
			is := model.Bin(model.OpEq, w.e, model.C(s.idOf(o, pos)))
			switch {
			case !s.isErrorObj(o) && !s.isErrorLeaf(o):
				others = orElse(others, is)
			case errorDepth(o) >= maxErrorDepth || !inLoop && s.reservedFor(o, spec, proc):
				deep = orElse(deep, is)
			default:
				opts = append(opts, errOption{cond: is, obj: o})
			}
		}
		if others != nil {
			refuse(others, "an error known only at run time that errors.New, fmt.Errorf or errors.Join did not make, wrapped (%w) or joined")
		}
		if deep != nil {
			refuse(deep, fmt.Sprintf("an error known only at run time %d deep, wrapped (%%w) or joined (fencecheck follows errors %d deep)", maxErrorDepth, maxErrorDepth))
		}
		at := fixed // where ref i's error goes among the joins: after those before it
		if i < len(refAt) {
			at = refAt[i]
		}
		next := extendAlts(alts, opts, at-fixed)
		if len(next) > maxCases || s.heap.hint.manyKinds[pos] {
			// Refused where a run reaches the call: every case, in this
			// round and the next (with fewer errors made, the next
			// round's cases would be fewer, and the rounds would not
			// settle).
			if !s.heap.hint.manyKinds[pos] && s.heap.hint.sentKnown {
				if s.heap.manyKinds == nil {
					s.heap.manyKinds = map[token.Pos]bool{}
				}
				s.heap.manyKinds[pos] = true
				s.heapChange("a call makes errors of too many kinds")
			}
			why := fmt.Sprintf("an error made around errors known only at run time of more than %d kinds", maxCases)
			if inLoop {
				// The trees a loop may build, whatever its iterations.
				why += fmt.Sprintf(" (in a loop, the trees it may build, up to %d deep, each a kind; joining only errors tested not nil makes fewer)", maxErrorDepth)
			}
			refuse(model.C(1), why)
			return nil
		}
		alts = next
	}
	return alts
}

// errOption is what an error known only at run time may be in one case:
// nil (obj nil) or the error obj, when cond holds.
type errOption struct {
	cond model.Expr
	obj  *object
}

// extendAlts returns the cases of alts each extended by each of opts, an
// operand's options: its error is joined, or, for a wrap, wrapped. A
// joined error goes after the errors of operands before it, the fixed
// ones (at counts from the end of the joins: 0 appends) and those known
// only at run time joined already. Cases
// that make the same error (errors.Join drops nil operands: joining A to
// nil, then nil, is joining nil, then A) are one, under either's
// condition, so that a join of n operands each nil or A has n+1 cases, not
// 2^n.
func extendAlts(alts []errAlt, opts []errOption, at int) []errAlt {
	var next []errAlt
	index := map[string]int{}
	for _, a := range alts {
		for _, op := range opts {
			sp := a.spec
			switch {
			case op.obj == nil:
			case sp.wrap:
				sp.wraps = op.obj
			default:
				sp.joins = slices.Insert(slices.Clip(sp.joins), len(sp.joins)+at, op.obj)
			}
			cond := op.cond
			if a.cond != nil {
				cond = model.Bin(model.OpAnd, a.cond, cond)
			}
			key := fmt.Sprintf("%p %v", sp.wraps, sp.joins)
			if i, seen := index[key]; seen {
				next[i].cond = model.Bin(model.OpOr, next[i].cond, cond)
				continue
			}
			index[key] = len(next)
			next = append(next, errAlt{cond: cond, spec: sp})
		}
	}
	return next
}

// The trees of the errors made around errors known only at run time
// settle over rounds of lowering. A goroutine may split over an error (or
// errors.Is walk its tree) before the call that makes it is lowered (a
// loop's exit comes before its body), when its object is still the one
// the previous round reserved: the hint carries each made error's tree, so
// that the reserved object has it from the start, and a round whose calls
// make another tree is lowered again.

// hintErrorTrees records in h the trees of the made errors of the round,
// by positions in h.objs; src gives the object of each position.
func (s *system) hintErrorTrees(h *heapHint, src map[int]*object) {
	at := map[*object]int{}
	for i, o := range src {
		if s.isErrorObj(o) || s.isErrorLeaf(o) {
			at[o] = i
		}
	}
	for o, i := range at {
		if k, ok := at[o.wraps]; ok {
			h.objs[i].wraps = k + 1
		}
		for _, j := range o.joins {
			if k, ok := at[j]; ok {
				h.objs[i].joins = append(h.objs[i].joins, k+1)
			}
		}
	}
}

// restoreErrorTrees gives the objects the hint reserved the trees it
// records.
func (s *system) restoreErrorTrees(h *heapHint) {
	obj := func(k int) *object {
		if k <= 0 || k > len(s.heap.heap) {
			return nil
		}
		return s.heap.heap[k-1]
	}
	for i, ho := range h.objs {
		if i >= len(s.heap.heap) {
			return
		}
		o := s.heap.heap[i]
		o.wraps = obj(ho.wraps)
		for _, j := range ho.joins {
			if c := obj(j); c != nil {
				o.joins = append(o.joins, c)
			}
		}
	}
}

// fillTree gives o, a made error, the tree spec says; a round that gives
// an object the hint reserved another tree than the previous round's is
// lowered again (one made afresh, which no earlier split named, is not).
func (s *system) fillTree(o *object, spec errSpec) {
	// The set-up (and the package's initialisation) runs before any
	// goroutine is lowered: nothing used the tree before it is filled (and
	// the hint lacks the errors below that have no heap id, a sentinel
	// only a set-up's join holds).
	// An object the round makes afresh had no tree that a goroutine
	// could use before it is filled.
	setup := len(s.procs) == 0
	if !setup && o.fromHint && (o.wraps != spec.wraps || !slices.Equal(o.joins, spec.joins)) {
		s.heapChange("the errors a made error wraps or joins differ between rounds")
	}
	o.wraps, o.joins = spec.wraps, spec.joins
}

// A goroutine's errors are reserved across rounds by what they are, not by
// the order of allocation: a split's errors are as many as the candidates
// the round knows, which grow from round to round, and would move every
// later allocation. An error's key is its call's name, the keys of the
// errors it wraps or joins, the process that made it, and how many errors
// of that key the round made before it.

// errKey returns the key of o as an error below another: its own key, or
// its allocation index for an error the set-up made (a sentinel).
func errKey(o *object) string {
	if o.errKey != "" {
		return o.errKey
	}
	return fmt.Sprintf("#%d", o.id)
}

// Errors joined or wrapped in a loop.
//
// errors.Join and fmt.Errorf("...%w", err) in a loop (a fan-in's all =
// errors.Join(all, err), a retry's err = fmt.Errorf("try %d: %w", n, err))
// make one error for each case of what they join or wrap, whatever the
// iteration, rather than a pool of fresh ones for each (the pools of the
// cases, which grow with the trees, are more than 64 kinds after two
// iterations). Two runs of a case then give the same object where Go makes
// two: only their identity tells them apart, so a comparison that may
// find one such error equal to itself (==, errors.Is with it as the
// target, a map key) is refused (loopIdentity); their trees, messages and
// errors.Is and errors.As through them are Go's.

// loopTag marks the key of an error that a loop's join or wrap makes.
const loopTag = "~loop"

// isLoopError reports whether o is an error a join or wrap in a loop made.
func isLoopError(o *object) bool { return strings.Contains(o.errKey, loopTag) }

// loopIdentity refuses, at pos, a comparison of x and y (or of x with the
// errors below y) when both may be one error a loop's join or wrap made.
func (s *system) loopIdentity(x value, ys []*object, pos token.Pos) {
	xs, known := refObjs(x)
	if x.kind == vIface && !known {
		if o, ok := s.wrapped(x); ok && o != nil {
			xs, known = []*object{o}, true
		}
	}
	for _, o := range ys {
		if isLoopError(o) && (!known || slices.Contains(xs, o)) {
			s.unsupported(pos, "comparing errors that errors.Join or fmt.Errorf made in a loop by identity (fencecheck keeps one error for each of their kinds, where Go makes one per run)")
		}
	}
}

// refuseLoopError refuses, at pos, a comparison of v by identity with what
// a cell holds (the old value of a compare-and-swap) when v may be an
// error a loop's join or wrap made: the cell may hold the error of
// another run of the same case.
func (s *system) refuseLoopError(v value, pos token.Pos) {
	objs, ok := refObjs(v)
	if !ok {
		if o, known := s.wrapped(v); known && o != nil {
			objs = []*object{o}
		}
	}
	s.loopIdentity(v, objs, pos)
}

// newKeyedError makes, in a goroutine, the error spec describes: the object
// the round before reserved for its key, when there is one.
func (s *system) newKeyedError(spec errSpec, proc int) *object {
	return s.keyedError(spec, proc, false)
}

// keyedError is newKeyedError; with loop, the error of a loop's join or
// wrap, one object for its case in every iteration.
func (s *system) keyedError(spec errSpec, proc int, loop bool) *object {
	var b strings.Builder
	if loop {
		b.WriteString(loopTag)
	}
	b.WriteString(spec.name)
	b.WriteString("(")
	if spec.wraps != nil {
		b.WriteString(errKey(spec.wraps))
	}
	for _, j := range spec.joins {
		b.WriteString(",")
		b.WriteString(errKey(j))
	}
	b.WriteString(")")
	b.WriteString(makerTag(proc))
	k := b.String()
	if o := s.heap.loopMade[k]; loop && o != nil {
		// The same case of the same call, lowered again (a loop's body
		// inlined at two places of the process): the same error.
		return o
	}
	base := k
	n := s.heap.keyCount[k]
	s.heap.keyCount[k] = n + 1
	k = fmt.Sprintf("%s%d", k, n)
	t := s.x.specType(spec)
	o := s.heap.keyed[k]
	id := s.allocID(t)
	if o != nil && types.Identical(o.typ, t) {
		delete(s.heap.keyed, k)
		o.id = id
	} else {
		o = &object{id: id, name: spec.name, typ: t, owner: -1}
	}
	o.errKey = k
	s.addObject(o)
	s.fillError(o, spec)
	if loop {
		s.heap.loopMade[base] = o
	}
	return o
}

// madeErrors returns the errors the k-th results of rets may be, when each
// is nil or errors errors.New, fmt.Errorf or errors.Join made: a function
// returning a wrapped error or nil by path returns those, not every error
// of the system (whose splits would multiply). ok is false otherwise.
func (s *system) madeErrors(rets []retSite, k int) (objs []*object, ok bool) {
	for _, r := range rets {
		v := r.vals[k]
		switch v.kind {
		case vNil:
		case vIface:
			o, known := s.wrapped(v)
			if !known {
				return nil, false
			}
			if o != nil && !slices.Contains(objs, o) {
				objs = append(objs, o)
			}
		case vRef:
			for _, o := range v.objs {
				if !s.isErrorObj(o) {
					return nil, false
				}
				if !slices.Contains(objs, o) {
					objs = append(objs, o)
				}
			}
		default:
			return nil, false
		}
	}
	return objs, true
}
