package extract

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Strings are opaque values: each string constant of a system is interned
// as a small integer (the empty string, Go's zero value, is 0), so that
// strings can be stored, loaded and compared with == and != like integers.
// Everything that looks inside a string (indexing, slicing, ordering,
// conversions) is unsupported, except len (of a constant, and in a
// goroutine of a string known only at run time: stringLen) and the
// concatenation of constants.
//
// A string that a call the model does not run returns (fmt.Sprint(e),
// b.String() of a strings.Builder, string(debug.Stack())) is strAny: it
// stands for every string at once. It may be stored, loaded, passed to
// such calls and concatenated (the result is strAny again). Once a system
// makes one, every == or != of strings known only at run time is a case
// split: where an operand is strAny the answer is either (Go's answer is
// one of the two, so this only adds behaviours), elsewhere the ids are
// compared. len of a string known only at run time is computed where the
// string is one of the interned ones, and is any length where it may be
// strAny (stringLen); a map key that may be it is refused where a run
// reaches it.

// strAny is the id of a string the model does not compute.
const strAny = -1

// uncomputedString is the result of a call the model does not run, of
// string type. Making one asks for another round in which every string
// comparison allows for it (heapHint.anyStrings).
func (s *system) uncomputedString(why string) value {
	s.heap.anyStrings = true
	if !s.heap.hint.anyStrings {
		s.heapChange("a string fencecheck does not compute is made")
	}
	return value{kind: vInt, e: model.C(strAny), why: why, uncomputed: true}
}

// internedIDs returns the ids of every string interned so far (0, the
// empty string, included), for a split over what a string known only at
// run time may hold. A string interned after the split asks for another
// round, which interns it first (heapHint.strs): in the round that
// stands, every string is interned before any split, so the cases cover
// every id.
func (s *system) internedIDs() []int64 {
	n := int64(len(s.strs))
	if !s.heap.lenSplit || n < s.heap.lenStrs {
		s.heap.lenSplit, s.heap.lenStrs = true, n
	}
	return upTo(0, n)
}

// isAnyString reports whether v is certainly strAny.
func isAnyString(v value) bool {
	c, ok := v.constant()
	return ok && c == strAny
}

// concatStrings lowers x + y on strings when the model knows the result:
// both constants (interned), or either strAny (strAny). ok is false
// otherwise.
func (s *system) concatStrings(x, y value) (value, bool) {
	if isAnyString(x) || isAnyString(y) {
		return s.concatUncomputed(x, y)
	}
	a, okA := s.stringOf(x)
	b, okB := s.stringOf(y)
	if !okA || !okB {
		return value{}, false
	}
	return constVal(s.intern(a + b)), true
}

// concatUncomputed is x + y where one is a string the model does not
// compute: such a string again, as long as both at least, a function of
// the inputs of both.
func (s *system) concatUncomputed(x, y value) (value, bool) {
	out := value{kind: vInt, e: model.C(strAny), uncomputed: true, why: x.why, depsKnown: true}
	if !isAnyString(x) {
		out.why = y.why
	}
	for _, v := range []value{x, y} {
		if str, ok := s.stringOf(v); ok && !isAnyString(v) {
			out.minLen += int64(len(str))
			continue
		}
		if !isAnyString(v) || !v.depsKnown {
			out.depsKnown, out.deps = false, nil
		}
		if isAnyString(v) {
			out.minLen += v.minLen
			if out.depsKnown {
				out.deps = append(out.deps, v.deps...)
			}
		}
	}
	return out, true
}

// stringCompare lowers x == y or x != y on strings when an operand may be
// strAny: a register r that is either answer where one is, and the
// comparison of the ids elsewhere. ok is false when neither operand can
// be strAny.
func (p *proc) stringCompare(fr *frame, in *ssa.BinOp, cur int) (next int, ok bool) {
	s := p.s
	if !isString(in.X.Type()) {
		return cur, false
	}
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if x.kind != vInt || y.kind != vInt {
		return cur, false
	}
	if isOrdering(in.Op) {
		return p.stringOrder(fr, in, x, y, cur), true
	}
	if in.Op != token.EQL && in.Op != token.NEQ {
		return cur, false
	}
	certain := isAnyString(x) || isAnyString(y)
	var anyE model.Expr
	for _, v := range []value{x, y} {
		if _, isConst := v.constant(); isConst || !s.heap.hint.anyStrings {
			continue
		}
		e := model.Bin(model.OpEq, v.e, model.C(strAny))
		if anyE == nil {
			anyE = e
		} else {
			anyE = model.Bin(model.OpOr, anyE, e)
		}
	}
	if !certain && anyE == nil {
		return cur, false
	}
	if !used(in) {
		return cur, true
	}
	pos := in.Pos()
	r := p.newReg(p.regName(fr, in), types.Typ[types.Bool])
	p.holds(r, fr, in)
	fr.vals[in] = intVal(model.R(r))
	join := p.newLoc(pos)
	either := cur
	if !certain {
		either = p.emit(cur, model.GuardOp(anyE), pos, Origin{})
		ids := p.emit(cur, model.GuardOp(model.Not(anyE)), pos, Origin{})
		op := model.OpEq
		if in.Op == token.NEQ {
			op = model.OpNe
		}
		p.emitTo(ids, model.AssignOp(r, model.Bin(op, x.e, y.e)), join, pos, Origin{})
	}
	p.guessAt(either, join, r, GuessCompare, pos, anyStringOf(x, y), s.inputsOf(fr, in.X, in.Y))
	return join, true
}

// maxOrderedStrings bounds the strings a comparison of strings known only
// at run time by <, <=, > or >= lists.
const maxOrderedStrings = 12

// isOrdering reports whether op is <, <=, > or >=.
func isOrdering(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}

// constStringOrder folds x op y, an ordering of two strings the model
// knows, as Go compares them (byte-wise); ok is false otherwise.
func (s *system) constStringOrder(x, y value, op token.Token) (value, bool) {
	a, aok := s.stringOf(x)
	b, bok := s.stringOf(y)
	if !isOrdering(op) || !aok || !bok {
		return value{}, false
	}
	r, _ := compare(op, a, b)
	return constVal(b2i(r)), true
}

// stringOrder lowers x op y, an ordering of strings of which one at least
// is known only at run time: the sum, over the pairs of interned strings
// that op holds for, of both ids being that pair; either answer where one
// may be a string fencecheck does not compute. Strings interned after it
// ask for another round, whose comparison lists them too.
func (p *proc) stringOrder(fr *frame, in *ssa.BinOp, x, y value, cur int) int {
	s := p.s
	if v, ok := s.constStringOrder(x, y, in.Op); ok {
		fr.vals[in] = v
		return cur
	}
	n := int64(len(s.strs)) + 1
	if n > maxOrderedStrings {
		s.unsupported(in.Pos(), "the operator %s on strings known only at run time, with more than %d strings in the system", in.Op, maxOrderedStrings)
	}
	all := s.internedIDs()
	ids := func(v value) []int64 {
		if c, ok := v.constant(); ok {
			return []int64{c}
		}
		return all
	}
	var sum model.Expr = model.C(0)
	for _, a := range ids(x) {
		for _, b := range ids(y) {
			if a == strAny || b == strAny {
				continue
			}
			sa, _ := s.stringOf(constVal(a))
			sb, _ := s.stringOf(constVal(b))
			if r, _ := compare(in.Op, sa, sb); r {
				sum = model.Bin(model.OpAdd, sum, model.Bin(model.OpAnd, model.Bin(model.OpEq, x.e, model.C(a)), model.Bin(model.OpEq, y.e, model.C(b))))
			}
		}
	}
	pos := in.Pos()
	r := p.newReg(p.regName(fr, in), types.Typ[types.Bool])
	p.holds(r, fr, in)
	fr.vals[in] = intVal(model.R(r))
	join := p.newLoc(pos)
	var anyE model.Expr = model.C(0)
	if s.heap.hint.anyStrings || isAnyString(x) || isAnyString(y) {
		anyE = model.Bin(model.OpOr, model.Bin(model.OpEq, x.e, model.C(strAny)), model.Bin(model.OpEq, y.e, model.C(strAny)))
		either := p.emit(cur, model.GuardOp(anyE), pos, Origin{})
		p.guessAt(either, join, r, GuessCompare, pos, anyStringOf(x, y), s.inputsOf(fr, in.X, in.Y))
	}
	known := p.emit(cur, model.GuardOp(model.Not(anyE)), pos, Origin{})
	p.emitTo(known, model.AssignOp(r, sum), join, pos, Origin{})
	return join
}

// anyStringOf says which operand of a comparison of strings fencecheck
// may not compute.
func anyStringOf(x, y value) string {
	for _, v := range []value{x, y} {
		if isAnyString(v) && v.why != "" {
			return strings.TrimSuffix(v.why, ", which fencecheck does not compute")
		}
	}
	return "strings made by fmt, strings.Builder or debug.Stack"
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// intern returns the integer that stands for the string str in the system.
func (s *system) intern(str string) int64 {
	if str == "" {
		return 0
	}
	if id, ok := s.strIDs[str]; ok {
		return id
	}
	if s.strIDs == nil {
		s.strIDs = map[string]int64{}
	}
	s.strs = append(s.strs, str)
	id := int64(len(s.strs))
	s.strIDs[str] = id
	return id
}

// stringOf returns the string a known string value stands for.
func (s *system) stringOf(v value) (string, bool) {
	id, ok := v.constant()
	if !ok || id < 0 || id > int64(len(s.strs)) {
		return "", false
	}
	if id == 0 {
		return "", true
	}
	return s.strs[id-1], true
}

// checkStringOp rejects the binary operators on strings that the model
// cannot express: all but == and !=.
func (s *system) checkStringOp(in *ssa.BinOp) {
	if !isString(in.X.Type()) {
		return
	}
	switch in.Op {
	case token.EQL, token.NEQ:
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		s.unsupported(in.Pos(), "the operator %s on strings the set-up does not know", in.Op)
	case token.ADD:
		s.unsupported(in.Pos(), "concatenating strings known only at run time (strings are opaque values: only ==, != and len of a constant are modelled)")
	default:
		s.unsupported(in.Pos(), "the operator %s on strings (strings are opaque values: only ==, != and len of a constant are modelled)", in.Op)
	}
}

// convertUncomputed converts a value the model does not compute between
// string and []byte or []rune (string(debug.Stack())): the result is not
// computed either. ok is false for any other value.
func (s *system) convertUncomputed(x value, to types.Type) (value, bool) {
	switch {
	case isString(to) && (x.kind == vOpaque && x.uncomputed || isAnyString(x)):
		v := s.uncomputedString(x.why)
		v.deps, v.depsKnown, v.minLen = x.deps, x.depsKnown, x.minLen
		return v, true
	case isSliceType(to) && isAnyString(x):
		v := opaque(x.why)
		v.uncomputed = true
		v.deps, v.depsKnown, v.minLen = x.deps, x.depsKnown, x.minLen
		return v, true
	}
	return value{}, false
}

// mayHoldAnyString reports whether the interface value v may hold strAny:
// compared with another interface value by its box, it would equal itself,
// which Go's strings need not.
func (s *system) mayHoldAnyString(v value) bool {
	switch v.kind {
	case vRef:
		return slices.ContainsFunc(v.objs, func(o *object) bool { return o.box && isString(o.typ) && o.boxVal == strAny })
	case vIface:
		if !isString(v.typ) || len(v.env) != 1 || v.env[0].kind != vInt {
			return false
		}
		c, isConst := v.env[0].constant()
		return isConst && c == strAny || !isConst && (s.heap.hint.anyStrings || s.heap.anyStrings)
	}
	return false
}

// isBuilderMethod reports whether fn is a method of *strings.Builder:
// WriteString, WriteByte, WriteRune, Write, Grow, Reset, String, Len and
// Cap change or read only the Builder, whose contents the model does not
// compute.
func isBuilderMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	return recv != nil && isNamed(deref(recv.Type()), "strings", "Builder")
}

// anyStringKey refuses, where a run reaches it, a map operation whose key
// is or holds a string the model does not compute: its slot is unknown.
// It returns the location from which the operation goes on for the other
// keys, or -1 when there is none.
func (p *proc) anyStringKey(fr *frame, key ssa.Value, pos token.Pos, cur int) int {
	s := p.s
	v := s.get(fr, key)
	var cells []value
	switch {
	case isString(key.Type()):
		cells = []value{v}
	case isAggregate(key.Type()) && v.kind == vAgg:
		for _, c := range s.aggCells(key.Type(), pos) {
			if isString(c.typ) {
				cells = append(cells, cellOf(v, c))
			}
		}
	}
	const what = "a map key that fencecheck does not compute"
	var anyE model.Expr
	for _, c := range cells {
		if c.kind != vInt {
			continue
		}
		if isAnyString(c) {
			return p.refuseAt(cur, what, pos)
		}
		if _, isConst := c.constant(); isConst || !s.heap.hint.anyStrings {
			continue
		}
		anyE = orElse(anyE, model.Bin(model.OpEq, c.e, model.C(strAny)))
	}
	if anyE == nil {
		return cur
	}
	p.refuseAt(p.emit(cur, model.GuardOp(anyE), pos, Origin{}), what, pos)
	return p.emit(cur, model.GuardOp(model.Not(anyE)), pos, Origin{})
}

// stringLen lowers len(x) in a goroutine for a string x known only at run
// time: a case split over what x holds. Where it holds an interned string
// (the register of a string loaded from memory), len is that string's
// length. Where it holds strAny, len is any non-negative int: when every
// use of the length compares it with a constant, the register takes one
// value of each interval between those constants (lenRepresentatives), so
// that every comparison gives each answer Go's can; any other use is a
// run-time refusal there. ok is false for any other instruction.
func (p *proc) stringLen(fr *frame, in ssa.Instruction, cur int) (next int, ok bool) {
	call, isCall := in.(*ssa.Call)
	if !isCall {
		return cur, false
	}
	b, isBuiltin := call.Call.Value.(*ssa.Builtin)
	if !isBuiltin || b.Name() != "len" || len(call.Call.Args) != 1 || !isString(call.Call.Args[0].Type()) {
		return cur, false
	}
	s := p.s
	x := s.get(fr, call.Call.Args[0])
	if _, known := s.stringOf(x); known || x.kind != vInt {
		return cur, false
	}
	if !used(call) {
		return cur, true
	}
	pos := call.Pos()
	r := p.newReg(p.regName(fr, call), types.Typ[types.Int])
	p.holds(r, fr, call)
	fr.vals[call] = intVal(model.R(r))
	join := p.newLoc(pos)
	anyLen := func(from int) {
		reps, ok := lenRepresentatives(call)
		if !ok {
			p.refuseAt(from, "len of a string fencecheck does not compute, used other than compared with constants", pos)
			return
		}
		for i, n := range reps {
			reps[i] = max(n, x.minLen) // lengths it cannot have are no answer
		}
		p.guessAt(from, join, r, GuessLen, pos, anyStringOf(x, x), s.inputsOf(fr, call.Call.Args[0]), slices.Compact(reps)...)
	}
	if isAnyString(x) {
		anyLen(cur)
		return join, true
	}
	// The ids of the strings it may be (those interned so far, or those
	// a split made it one of), by length.
	ids := x.strIDs
	if ids == nil {
		ids = s.internedIDs()
	}
	byLen := map[int64]model.Expr{}
	var lens []int64
	for _, id := range ids {
		str, _ := s.stringOf(constVal(id))
		l := int64(len(str))
		if _, seen := byLen[l]; !seen {
			lens = append(lens, l)
		}
		byLen[l] = orElse(byLen[l], model.Bin(model.OpEq, x.e, model.C(id)))
	}
	slices.Sort(lens)
	for _, l := range lens {
		g := p.emit(cur, model.GuardOp(byLen[l]), pos, Origin{})
		p.emitTo(g, model.AssignOp(r, model.C(l)), join, pos, Origin{})
	}
	if x.strIDs != nil {
		return join, true // it is one of those, never strAny
	}
	if s.heap.hint.anyStrings {
		anyLen(p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(strAny))), pos, Origin{}))
	}
	return join, true
}

// lenRepresentatives returns, when every use of the length n that call
// computes compares it with a constant, one value of each interval of the
// non-negative ints on which those comparisons all give the same answers:
// 0, each constant k and its neighbours k-1 and k+1 (those not negative).
// ok is false when a use is anything else.
func lenRepresentatives(call *ssa.Call) (reps []int64, ok bool) {
	reps = []int64{0}
	for _, r := range *call.Referrers() {
		if _, isDebug := r.(*ssa.DebugRef); isDebug {
			continue
		}
		bo, isBin := r.(*ssa.BinOp)
		if !isBin || !isComparison(bo.Op) {
			return nil, false
		}
		other := bo.Y
		if other == ssa.Value(call) {
			other = bo.X
		}
		k, isConst := other.(*ssa.Const)
		if !isConst || k.Value == nil || k.Value.Kind() != constant.Int {
			return nil, false
		}
		c, exact := constant.Int64Val(k.Value)
		if !exact || c > maxLenConst {
			return nil, false
		}
		for _, v := range []int64{c - 1, c, c + 1} {
			if v >= 0 {
				reps = append(reps, v)
			}
		}
	}
	slices.Sort(reps)
	return slices.Compact(reps), true
}

// maxLenConst bounds the constants a length known only at run time is
// compared with, so that their neighbours stay far from overflow.
const maxLenConst = 1 << 40
