package extract

import (
	"go/token"
	"strings"

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

// stringsCall computes a function of stringFuncs whose arguments are all
// constants; ok is false for any other call.
func (s *system) stringsCall(fn *ssa.Function, args []value) (value, bool) {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "strings" || fn.Signature.Recv() != nil {
		return value{}, false
	}
	sf, ok := stringFuncs[fn.Name()]
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
		s.fail(pos, "index %d out of range [0:%d]", c, len(str))
	}
	return constVal(int64(str[c]))
}

// unknownStringUse describes an instruction of a goroutine that looks
// inside a string the model does not know (slices it, indexes it, takes
// its length, or slices or indexes a constant by a bound known only at run
// time): a run-time refusal where a run reaches it, so that a library's
// path a system never takes (validating a name that an earlier lookup
// found) does not refuse the system. ok is false for any other
// instruction.
func (s *system) unknownStringUse(fr *frame, in ssa.Instruction) (string, bool) {
	var str ssa.Value
	var bounds []ssa.Value
	what := ""
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
