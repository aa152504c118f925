package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Strings are opaque values: each string constant of a system is interned
// as a small integer (the empty string, Go's zero value, is 0), so that
// strings can be stored, loaded and compared with == and != like integers.
// Everything that looks inside a string (indexing, slicing, ordering,
// conversions) is unsupported, except len of a constant and the
// concatenation of constants.
//
// A string that a call the model does not run returns (fmt.Sprint(e),
// b.String() of a strings.Builder, string(debug.Stack())) is strAny: it
// stands for every string at once. It may be stored, loaded, passed to
// such calls and concatenated (the result is strAny again). Once a system
// makes one, every == or != of strings known only at run time is a case
// split: where an operand is strAny the answer is either (Go's answer is
// one of the two, so this only adds behaviours), elsewhere the ids are
// compared. len of it and a map key that may be it are refused where a
// run reaches them.

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

// isAnyString reports whether v is certainly strAny.
func isAnyString(v value) bool {
	c, ok := v.constant()
	return ok && c == strAny
}

// concatStrings lowers x + y on strings when the model knows the result:
// both constants (interned), or either strAny (strAny). ok is false
// otherwise.
func (s *system) concatStrings(x, y value) (value, bool) {
	if isAnyString(x) {
		return x, true
	}
	if isAnyString(y) {
		return y, true
	}
	a, okA := s.stringOf(x)
	b, okB := s.stringOf(y)
	if !okA || !okB {
		return value{}, false
	}
	return constVal(s.intern(a + b)), true
}

// stringCompare lowers x == y or x != y on strings when an operand may be
// strAny: a register r that is either answer where one is, and the
// comparison of the ids elsewhere. ok is false when neither operand can
// be strAny.
func (p *proc) stringCompare(fr *frame, in *ssa.BinOp, cur int) (next int, ok bool) {
	s := p.s
	if !isString(in.X.Type()) || in.Op != token.EQL && in.Op != token.NEQ {
		return cur, false
	}
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if x.kind != vInt || y.kind != vInt {
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
	p.emitTo(either, model.AssignOp(r, model.C(0)), join, pos, Origin{})
	p.emitTo(either, model.AssignOp(r, model.C(1)), join, pos, Origin{})
	return join, true
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
		return s.uncomputedString(x.why), true
	case isSliceType(to) && isAnyString(x):
		v := opaque(x.why)
		v.uncomputed = true
		return v, true
	}
	return value{}, false
}

// anyStringBoxed reports whether an interface value may hold strAny: its
// box would compare equal to itself, which Go's strings need not.
func (s *system) anyStringBoxed() bool {
	for _, o := range s.heap.boxes {
		if isString(o.typ) && o.boxVal == strAny {
			return true
		}
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
