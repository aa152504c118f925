package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fencecheck/fencecheck/model"
	"golang.org/x/tools/go/ssa"
)

// Functions of package strings applied to constants are computed, so that
// a library that checks a constant name (a metric's, a label's) runs its
// checks exactly: the functions of stringFuncs, a constant string sliced
// by constant bounds, indexed by a constant index, and len of one. Applied
// to anything else they stay calls whose results the model does not
// compute (strings.go).

// stringFunc computes one function of package strings on constants: strs
// are its string arguments, n its integer one (a byte or a rune), and the
// result is an int, a bool (0 or 1) or, when isStr, a string.
type stringFunc struct {
	nStr  int // the number of leading string arguments
	isStr bool
	f     func(strs []string, n int64) (int64, string)
}

func boolResult(b bool) (int64, string) {
	if b {
		return 1, ""
	}
	return 0, ""
}

func intResult(n int) (int64, string) { return int64(n), "" }

func strResult(s string) (int64, string) { return 0, s }

var stringFuncs = map[string]stringFunc{
	"IndexByte":     {1, false, func(s []string, n int64) (int64, string) { return intResult(strings.IndexByte(s[0], byte(n))) }},
	"LastIndexByte": {1, false, func(s []string, n int64) (int64, string) { return intResult(strings.LastIndexByte(s[0], byte(n))) }},
	"IndexRune":     {1, false, func(s []string, n int64) (int64, string) { return intResult(strings.IndexRune(s[0], rune(n))) }},
	"ContainsRune":  {1, false, func(s []string, n int64) (int64, string) { return boolResult(strings.ContainsRune(s[0], rune(n))) }},
	"Index":         {2, false, func(s []string, _ int64) (int64, string) { return intResult(strings.Index(s[0], s[1])) }},
	"LastIndex":     {2, false, func(s []string, _ int64) (int64, string) { return intResult(strings.LastIndex(s[0], s[1])) }},
	"IndexAny":      {2, false, func(s []string, _ int64) (int64, string) { return intResult(strings.IndexAny(s[0], s[1])) }},
	"Contains":      {2, false, func(s []string, _ int64) (int64, string) { return boolResult(strings.Contains(s[0], s[1])) }},
	"ContainsAny":   {2, false, func(s []string, _ int64) (int64, string) { return boolResult(strings.ContainsAny(s[0], s[1])) }},
	"HasPrefix":     {2, false, func(s []string, _ int64) (int64, string) { return boolResult(strings.HasPrefix(s[0], s[1])) }},
	"HasSuffix":     {2, false, func(s []string, _ int64) (int64, string) { return boolResult(strings.HasSuffix(s[0], s[1])) }},
	"EqualFold":     {2, false, func(s []string, _ int64) (int64, string) { return boolResult(strings.EqualFold(s[0], s[1])) }},
	"Compare":       {2, false, func(s []string, _ int64) (int64, string) { return intResult(strings.Compare(s[0], s[1])) }},
	"Count":         {2, false, func(s []string, _ int64) (int64, string) { return intResult(strings.Count(s[0], s[1])) }},
	"TrimSpace":     {1, true, func(s []string, _ int64) (int64, string) { return strResult(strings.TrimSpace(s[0])) }},
	"ToLower":       {1, true, func(s []string, _ int64) (int64, string) { return strResult(strings.ToLower(s[0])) }},
	"ToUpper":       {1, true, func(s []string, _ int64) (int64, string) { return strResult(strings.ToUpper(s[0])) }},
	"TrimPrefix":    {2, true, func(s []string, _ int64) (int64, string) { return strResult(strings.TrimPrefix(s[0], s[1])) }},
	"TrimSuffix":    {2, true, func(s []string, _ int64) (int64, string) { return strResult(strings.TrimSuffix(s[0], s[1])) }},
	"Trim":          {2, true, func(s []string, _ int64) (int64, string) { return strResult(strings.Trim(s[0], s[1])) }},
	"TrimLeft":      {2, true, func(s []string, _ int64) (int64, string) { return strResult(strings.TrimLeft(s[0], s[1])) }},
	"TrimRight":     {2, true, func(s []string, _ int64) (int64, string) { return strResult(strings.TrimRight(s[0], s[1])) }},
}

// utf8Funcs are the functions of package unicode/utf8 computed on
// constants.
var utf8Funcs = map[string]stringFunc{
	"ValidString":       {1, false, func(s []string, _ int64) (int64, string) { return boolResult(utf8.ValidString(s[0])) }},
	"RuneCountInString": {1, false, func(s []string, _ int64) (int64, string) { return intResult(utf8.RuneCountInString(s[0])) }},
}

// constStringFuncs are the functions computed on constants, by package.
var constStringFuncs = map[string]map[string]stringFunc{
	"strings":      stringFuncs,
	"unicode/utf8": utf8Funcs,
}

// stringsCall computes a function of constStringFuncs whose arguments are
// all constants; ok is false for any other call.
func (s *system) stringsCall(fn *ssa.Function, args []value) (value, bool) {
	if fn.Pkg == nil || fn.Signature.Recv() != nil {
		return value{}, false
	}
	sf, ok := constStringFuncs[fn.Pkg.Pkg.Path()][fn.Name()]
	if !ok || len(args) < sf.nStr {
		return value{}, false
	}
	strs := make([]string, sf.nStr)
	for i := range strs {
		if strs[i], ok = s.stringOf(args[i]); !ok {
			return value{}, false
		}
	}
	var n int64
	if len(args) > sf.nStr {
		if n, ok = args[sf.nStr].constant(); !ok {
			return value{}, false
		}
	}
	c, str := sf.f(strs, n)
	if sf.isStr {
		return constVal(s.intern(str)), true
	}
	return constVal(c), true
}

// stringPredicates are the functions of package strings whose bool result
// stringsCallAt computes on a string known only at run time.
var stringPredicates = map[string]bool{
	"Contains": true, "ContainsAny": true, "ContainsRune": true,
	"HasPrefix": true, "HasSuffix": true, "EqualFold": true,
}

// stringsCallAt lowers a predicate of stringPredicates (the call in, of
// fn on args) one of whose string operands is known only at run time and
// the others constants (strings.Contains(err.Error(), "timeout") of an
// error received from a channel): the disjunction, over the interned
// strings it holds for, of the operand being that string; either answer
// (a guess) where it may be a string fencecheck does not compute. Strings
// interned after it ask for another round, as for stringOrder. ok is
// false for other calls.
func (p *proc) stringsCallAt(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "strings" || fn.Signature.Recv() != nil || !stringPredicates[fn.Name()] {
		return cur, false
	}
	sf := stringFuncs[fn.Name()]
	run := -1 // the operand known only at run time
	strs := make([]string, sf.nStr)
	for i := range sf.nStr {
		if str, ok := s.stringOf(args[i]); ok {
			strs[i] = str
			continue
		}
		if run >= 0 || args[i].kind != vInt || isAnyString(args[i]) {
			return cur, false
		}
		run = i
	}
	var n int64
	if len(args) > sf.nStr {
		c, ok := args[sf.nStr].constant()
		if !ok {
			return cur, false
		}
		n = c
	}
	if run < 0 {
		return cur, false
	}
	x := args[run].e
	var holds model.Expr = model.C(0)
	for _, id := range s.internedIDs() {
		strs[run], _ = s.stringOf(constVal(id))
		if c, _ := sf.f(strs, n); c != 0 {
			holds = model.Bin(model.OpOr, holds, model.Bin(model.OpEq, x, model.C(id)))
		}
	}
	pos := in.Pos()
	r := p.resultReg(fr, in, types.Typ[types.Bool])
	if r < 0 {
		return cur, true
	}
	fr.vals[in] = intVal(model.R(r))
	join := p.newLoc(pos)
	var anyE model.Expr = model.C(0)
	if s.heap.hint.anyStrings {
		anyE = model.Bin(model.OpEq, x, model.C(strAny))
		what := "the result of strings." + fn.Name() + " of a string fencecheck does not compute"
		p.guessAt(p.emit(cur, model.GuardOp(anyE), pos, Origin{}), join, r, GuessBool, pos, what, s.inputsOf(fr, in.Call.Args...))
	}
	known := p.emit(cur, model.GuardOp(model.Not(anyE)), pos, Origin{})
	p.emitTo(known, model.AssignOp(r, holds), join, pos, Origin{})
	return join, true
}

// sliceString evaluates str[lo:hi] for a constant string and constant
// bounds; ok is false when they are out of range: the instruction panics.
func (s *system) sliceString(fr *frame, in *ssa.Slice, x value) (value, bool) {
	str, known := s.stringOf(x)
	if !known {
		s.unsupported(in.Pos(), "slicing a string known only at run time (strings are opaque values)")
	}
	bound := func(b ssa.Value, def int64) int64 {
		if b == nil {
			return def
		}
		c, isConst := s.get(fr, b).constant()
		if !isConst {
			s.unsupported(in.Pos(), "slicing a string by bounds known only at run time (strings are opaque values)")
		}
		return c
	}
	lo, hi := bound(in.Low, 0), bound(in.High, int64(len(str)))
	if lo < 0 || hi < lo || hi > int64(len(str)) {
		return value{}, false
	}
	return constVal(s.intern(str[lo:hi])), true
}

// indexString evaluates str[i] for a constant string and a constant index.
func (s *system) indexString(x, i value, pos token.Pos) value {
	str, known := s.stringOf(x)
	c, isConst := i.constant()
	if !known || !isConst {
		s.unsupported(pos, "indexing a string known only at run time, or by an index known only at run time (strings are opaque values)")
	}
	if c < 0 || c >= int64(len(str)) {
		s.goPanic(pos, "index %d out of range [0:%d]", c, len(str))
	}
	return constVal(int64(str[c]))
}

// stringOperand returns the string in slices, indexes or takes the len
// of, the bounds or index it uses, and what it does; a nil string for any
// other instruction.
func stringOperand(in ssa.Instruction) (str ssa.Value, bounds []ssa.Value, what string) {
	switch in := in.(type) {
	case *ssa.Slice:
		str, bounds, what = in.X, []ssa.Value{in.Low, in.High}, "slicing a string"
	case *ssa.Index:
		str, bounds, what = in.X, []ssa.Value{in.Index}, "indexing a string"
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" && len(in.Call.Args) == 1 {
			str, what = in.Call.Args[0], "len of a string"
		}
	}
	if str == nil || !isString(str.Type()) {
		return nil, nil, ""
	}
	return str, bounds, what
}

// unknownStringUse describes an instruction of a goroutine that looks
// inside a string the model does not know (slices it, indexes it, takes
// its length, or slices or indexes a constant by a bound known only at run
// time): a run-time refusal where a run reaches it, so that a library's
// path a system never takes (validating a name that an earlier lookup
// found) does not refuse the system. ok is false for any other
// instruction.
func (s *system) unknownStringUse(fr *frame, in ssa.Instruction) (string, bool) {
	str, bounds, what := stringOperand(in)
	if str == nil {
		return "", false
	}
	if _, known := s.stringOf(s.get(fr, str)); !known {
		return what + " known only at run time (strings are opaque values)", true
	}
	for _, b := range bounds {
		if b == nil {
			continue
		}
		if _, isConst := s.get(fr, b).constant(); !isConst {
			return what + " by a bound known only at run time (strings are opaque values)", true
		}
	}
	return "", false
}

// A strings.Builder that the set-up uses only through its methods (a
// variable whose address goes to no other code: b := strings.Builder{};
// b.WriteString(ns); b.WriteString("_"); return b.String(), as metric
// libraries build a metric's full name) has its contents computed while
// every string, byte and rune written to it is a constant: its String()
// is then that constant. Any other Builder's String() is a string the
// model does not compute (strings.go).

// builderState is what the set-up knows of the contents of one Builder.
type builderState struct {
	str     string
	unknown bool // something not constant was written
}

// builderCall executes, in the set-up, a method of a strings.Builder that
// builderOnly allows; ok is false for every other call.
func (s *system) builderCall(c *ssa.CallCommon, fn *ssa.Function, args []value) (value, bool) {
	if !isBuilderMethod(fn) || len(c.Args) == 0 || len(args) == 0 || args[0].kind != vPtr || args[0].ptr.dynamic() {
		return value{}, false
	}
	if a, ok := c.Args[0].(*ssa.Alloc); !ok || !builderOnly(a) {
		return value{}, false
	}
	if s.builders == nil {
		s.builders = map[string]*builderState{}
	}
	key := args[0].ptr.key()
	b := s.builders[key]
	if b == nil {
		b = &builderState{}
		s.builders[key] = b
	}
	write := func(str string, known bool) {
		b.str += str
		b.unknown = b.unknown || !known
	}
	switch fn.Name() {
	case "WriteString", "WriteRune":
		var str string
		var ok bool
		if fn.Name() == "WriteString" {
			str, ok = s.stringOf(args[1])
		} else {
			var r int64
			r, ok = args[1].constant()
			str = string(rune(r))
		}
		write(str, ok)
		n := opaque("the length of a string the model does not compute")
		if ok {
			n = constVal(int64(len(str)))
		}
		return value{kind: vTuple, tup: []value{n, {kind: vNil}}}, true
	case "WriteByte":
		c, ok := args[1].constant()
		write(string([]byte{byte(c)}), ok)
		return value{kind: vNil}, true
	case "Reset":
		*b = builderState{}
		return value{}, true
	case "Grow":
		if g, ok := args[1].constant(); ok && g >= 0 {
			return value{}, true
		}
	case "Len":
		if !b.unknown {
			return constVal(int64(len(b.str))), true
		}
	case "String":
		if !b.unknown {
			return constVal(s.intern(b.str)), true
		}
		return s.uncomputedString("the contents of a strings.Builder written with strings the model does not compute"), true
	}
	b.unknown = true
	return value{}, false
}

// builderOnly reports whether the Builder a allocates is used only as the
// receiver of its methods (and zeroed by its declaration): no other code
// can change its contents or copy it.
func builderOnly(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != a {
				return false
			}
			if c, ok := r.Val.(*ssa.Const); !ok || !c.IsNil() && c.Value != nil {
				return false
			}
		case ssa.CallInstruction:
			c := r.Common()
			f := c.StaticCallee()
			if f == nil || !isBuilderMethod(f) || len(c.Args) == 0 || c.Args[0] != a {
				return false
			}
			for _, arg := range c.Args[1:] {
				if arg == a {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// sortCall sorts, in the set-up, a slice of strings or of signed integers
// whose elements are all constants (sort.Strings, sort.Ints, slices.Sort),
// as a library sorts the label names it is given; ok is false for any
// other call, which stays a call the model does not run.
func (s *system) sortCall(fn *ssa.Function, args []value) (value, bool) {
	orig := fn
	if fn.Origin() != nil {
		orig = fn.Origin()
	}
	if orig.Pkg == nil || len(args) != 1 || fn.Signature.Recv() != nil {
		return value{}, false
	}
	switch orig.Pkg.Pkg.Path() + "." + orig.Name() {
	case "sort.Strings", "sort.Ints", "slices.Sort":
	default:
		return value{}, false
	}
	if args[0].kind == vNil {
		return value{}, true
	}
	x := args[0]
	if x.kind != vSlice || x.ptr.dynamic() || x.sl.dlen != nil {
		return value{}, false
	}
	elem, ok := fn.Signature.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return value{}, false
	}
	b, ok := elem.Elem().Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsString|types.IsInteger) == 0 || b.Info()&types.IsUnsigned != 0 {
		return value{}, false
	}
	str := b.Info()&types.IsString != 0
	cells := make([]pointer, x.sl.len)
	vals := make([]int64, x.sl.len)
	strs := make([]string, x.sl.len)
	for i := range cells {
		cells[i] = x.ptr.with(step{field: -1, index: int(x.sl.off) + i})
		v, present := s.mem[cells[i].key()]
		if !present {
			continue
		}
		c, ok := v.constant()
		if !ok {
			return value{}, false
		}
		vals[i] = c
		if str {
			if strs[i], ok = s.stringOf(v); !ok {
				return value{}, false
			}
		}
	}
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		if str {
			return strs[order[i]] < strs[order[j]]
		}
		return vals[order[i]] < vals[order[j]]
	})
	for i, p := range cells {
		s.mem[p.key()] = constVal(vals[order[i]])
	}
	return value{}, true
}

// sortShortCall executes sort.Sort(data) and sort.Stable(data) where data
// is an interface value of known dynamic type whose Len method, run as
// written, returns 0 or 1: the sort then calls nothing else (a library
// sorting an empty list of label pairs). ok is false otherwise.
func (s *system) sortShortCall(fr *frame, fn *ssa.Function, args []value, spawns *[]spawn) (value, bool) {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sort" || fn.Name() != "Sort" && fn.Name() != "Stable" || len(args) != 1 || args[0].kind != vIface {
		return value{}, false
	}
	data := args[0]
	lenFn := s.x.ssapkg.Prog.LookupMethod(data.typ, nil, "Len")
	if lenFn == nil || !s.x.local(lenFn) || fr.onStack(lenFn) {
		return value{}, false
	}
	n, _ := s.exec(s.bindCall(lenFn, nil, []value{data.env[0]}, fr), false, spawns)
	if c, ok := n.constant(); ok && c <= 1 {
		return value{}, true
	}
	return value{}, false
}

// constStringIndex lowers str[i], in a goroutine, for a string the model
// knows (a constant: a table of digits or of bit lengths) and an index
// known only at run time: a case split over the runs of equal bytes of
// str, each a range of indices, and an index out of range panics. ok is
// false for any other instruction.
func (p *proc) constStringIndex(fr *frame, in ssa.Instruction, cur int) (int, bool) {
	ix, isIndex := in.(*ssa.Index)
	if !isIndex || !isString(ix.X.Type()) {
		return cur, false
	}
	s := p.s
	str, known := s.stringOf(s.get(fr, ix.X))
	idx := s.get(fr, ix.Index)
	if _, isConst := idx.constant(); !known || isConst || idx.kind != vInt {
		return cur, false
	}
	if len(str) == 0 {
		p.splitIndex(str, idx.e, -1, cur, -1, ix.Pos())
		return -1, true
	}
	r := p.newReg(p.regName(fr, ix), ix.Type())
	p.holds(r, fr, ix)
	fr.vals[ix] = intVal(model.R(r))
	join := p.newLoc(ix.Pos())
	p.splitIndex(str, idx.e, r, cur, join, ix.Pos())
	return join, true
}

// splitIndex emits, from cur, str[e] into register r, joining at join: a
// branch per run of equal bytes of str, each a range of indices, and a
// panic for an index out of range (str empty: only the panic).
func (p *proc) splitIndex(str string, e model.Expr, r, cur, join int, pos token.Pos) {
	oor := model.Bin(model.OpOr, model.Bin(model.OpLt, e, model.C(0)), model.Bin(model.OpGe, e, model.C(int64(len(str)))))
	p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(oor), pos, Origin{}), name: "index out of range", pos: pos})
	for lo := 0; lo < len(str); {
		hi := lo
		for hi+1 < len(str) && str[hi+1] == str[lo] {
			hi++
		}
		in := model.Bin(model.OpAnd, model.Bin(model.OpGe, e, model.C(int64(lo))), model.Bin(model.OpLe, e, model.C(int64(hi))))
		p.emitTo(p.emit(cur, model.GuardOp(in), pos, Origin{}), model.AssignOp(r, model.C(int64(str[lo]))), join, pos, Origin{})
		lo = hi + 1
	}
}

// maxIndexedBytes bounds the bytes a split of runtimeStringIndex covers:
// the lengths of every string the system interns, summed.
const maxIndexedBytes = 4096

// runtimeStringIndex lowers str[i], in a goroutine, for a string known
// only at run time (a register holding the id of an interned string: a
// key chosen by a goroutine, hashed byte by byte to pick a shard) and any
// index: a case split over the strings it may hold, each then split as
// constStringIndex splits a constant's index (an index out of range of
// the string it holds panics). A string the model does not compute is
// refused where a run indexes it. As for len, a string interned after the
// split asks for another round (heapHint.strs), which interns it first.
// ok is false for any other instruction.
func (p *proc) runtimeStringIndex(fr *frame, in ssa.Instruction, cur int) (int, bool) {
	ix, isIndex := in.(*ssa.Index)
	if !isIndex || !isString(ix.X.Type()) {
		return cur, false
	}
	s := p.s
	x, idx := s.get(fr, ix.X), s.get(fr, ix.Index)
	if _, known := s.stringOf(x); known || x.kind != vInt || isAnyString(x) || idx.kind != vInt {
		return cur, false
	}
	n := int64(len(s.strs))
	total := 0
	for _, str := range s.strs {
		total += len(str)
	}
	pos := ix.Pos()
	if total > maxIndexedBytes {
		return p.refuseAt(cur, fmt.Sprintf("indexing a string known only at run time, one of %d strings of %d bytes in all (fencecheck splits over at most %d)", n, total, maxIndexedBytes), pos), true
	}
	ids := x.strIDs
	if ids == nil {
		if s.heap.hint.anyStrings {
			p.refuseAt(p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(strAny))), pos, Origin{}), "indexing a string fencecheck does not compute", pos)
		}
		ids = s.internedIDs()
	}
	r := p.newReg(p.regName(fr, ix), ix.Type())
	p.holds(r, fr, ix)
	fr.vals[ix] = intVal(model.R(r))
	join := p.newLoc(pos)
	for _, id := range ids {
		str, _ := s.stringOf(constVal(id))
		at := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(id))), pos, Origin{})
		p.splitIndex(str, idx.e, r, at, join, pos)
	}
	return join, true
}
