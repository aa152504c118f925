package extract

import (
	"fmt"
	"go/constant"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Functions of fmt and strconv applied to constants are computed, as
// conststrings.go computes those of strings: fmt.Sprint, Sprintf and
// Sprintln of constant bools, integers and strings (of Go's own types,
// whose formatting no String method changes), and strconv's conversions
// between integers, bools and strings. A label such as fmt.Sprintf("job
// %d", i) in a goroutine specialised by its i is then a string the model
// knows, and comparisons of it need no guess (guess.go). Anything else
// stays a call whose result the model does not compute.

// formatCall computes a call of fmt or strconv whose arguments are
// constants; ok is false for any other call, and for a strconv parse that
// fails (its error is not one the model makes).
func (s *system) formatCall(fr *frame, c *ssa.CallCommon, fn *ssa.Function, args []value) (value, bool) {
	if fn.Pkg == nil || fn.Signature.Recv() != nil || len(args) != len(c.Args) {
		return value{}, false
	}
	switch fn.Pkg.Pkg.Path() {
	case "fmt":
		return s.sprintCall(fr, c, fn.Name(), args)
	case "strconv":
		return s.strconvCall(fn.Name(), args)
	}
	return value{}, false
}

// sprintCall computes fmt.Sprint, Sprintf or Sprintln of constants.
func (s *system) sprintCall(fr *frame, c *ssa.CallCommon, name string, args []value) (value, bool) {
	var out string
	switch name {
	case "Sprint", "Sprintln":
		vals, ok := s.constVarargs(fr, c.Args[0])
		if !ok {
			return value{}, false
		}
		if name == "Sprint" {
			out = fmt.Sprint(vals...)
		} else {
			out = fmt.Sprintln(vals...)
		}
	case "Sprintf":
		format, ok := s.stringOf(args[0])
		if !ok {
			return value{}, false
		}
		vals, ok := s.constVarargs(fr, c.Args[1])
		if !ok {
			return value{}, false
		}
		out = fmt.Sprintf(format, vals...)
	default:
		return value{}, false
	}
	return constVal(s.intern(out)), true
}

// constVarargs returns the operands of a call's ... parameter v, the slice
// of a varargs array of interface values, as Go values, when each is a
// constant of a basic type the model knows.
func (s *system) constVarargs(fr *frame, v ssa.Value) ([]any, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	elems, ok := varargsOnly(sl)
	if !ok {
		return nil, false
	}
	vals := make([]any, len(elems))
	for i, mi := range elems {
		if vals[i], ok = s.goConst(s.get(fr, mi.X), mi.X.Type()); !ok {
			return nil, false
		}
	}
	return vals, true
}

// goConst returns v, a constant of the basic type t (not a named type,
// whose String method fmt would call), as a Go value of that type.
func (s *system) goConst(v value, t types.Type) (any, bool) {
	b, ok := t.(*types.Basic)
	if !ok {
		return nil, false
	}
	if b.Info()&types.IsString != 0 {
		return s.stringOf(v)
	}
	c, ok := v.constant()
	if !ok {
		return nil, false
	}
	switch b.Kind() {
	case types.Bool:
		return c != 0, true
	case types.Int:
		return int(c), true
	case types.Int8:
		return int8(c), true
	case types.Int16:
		return int16(c), true
	case types.Int32:
		return int32(c), true
	case types.Int64:
		return c, true
	case types.Uint:
		return uint(c), true
	case types.Uint8:
		return uint8(c), true
	case types.Uint16:
		return uint16(c), true
	case types.Uint32:
		return uint32(c), true
	case types.Uint64:
		return uint64(c), true
	case types.Uintptr:
		return uintptr(c), true
	}
	return nil, false
}

// strconvCall computes strconv's conversions of constants.
func (s *system) strconvCall(name string, args []value) (value, bool) {
	str := func(i int) (string, bool) { return s.stringOf(args[i]) }
	num := func(i int) (int64, bool) { return args[i].constant() }
	ret := func(x string) (value, bool) { return constVal(s.intern(x)), true }
	parsed := func(n int64, err error) (value, bool) {
		if err != nil {
			return value{}, false
		}
		return value{kind: vTuple, tup: []value{constVal(n), {kind: vNil}}}, true
	}
	switch name {
	case "Itoa":
		if n, ok := num(0); ok {
			return ret(strconv.Itoa(int(n)))
		}
	case "FormatInt":
		if n, ok := num(0); ok {
			if base, ok := num(1); ok && base >= 2 && base <= 36 {
				return ret(strconv.FormatInt(n, int(base)))
			}
		}
	case "FormatBool":
		if n, ok := num(0); ok {
			return ret(strconv.FormatBool(n != 0))
		}
	case "Quote":
		if x, ok := str(0); ok {
			return ret(strconv.Quote(x))
		}
	case "Atoi":
		if x, ok := str(0); ok {
			n, err := strconv.Atoi(x)
			return parsed(int64(n), err)
		}
	case "ParseBool":
		if x, ok := str(0); ok {
			b, err := strconv.ParseBool(x)
			return parsed(b2i(b), err)
		}
	case "ParseInt":
		if x, ok := str(0); ok {
			if base, ok := num(1); ok {
				if bits, ok := num(2); ok && bits >= 0 && bits <= 64 {
					n, err := strconv.ParseInt(x, int(base), int(bits))
					return parsed(n, err)
				}
			}
		}
	}
	return value{}, false
}

// formatMinLen returns a length that every result of the call c of fn
// has: for fmt.Sprintf of a constant format, its bytes outside the verbs
// (%% is one); one byte for fmt.Sprintln, strconv.Itoa and FormatInt;
// else 0.
func (s *system) formatMinLen(fn *ssa.Function, c *ssa.CallCommon) int64 {
	if fn.Pkg == nil || fn.Signature.Recv() != nil {
		return 0
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "fmt.Sprintln", "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint":
		return 1
	case "fmt.Sprintf":
		k, ok := c.Args[0].(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.String {
			return 0
		}
		return literalLen(constant.StringVal(k.Value))
	}
	return 0
}

// literalLen counts the bytes of a format that fmt copies: those outside
// its verbs, and one for each %%.
func literalLen(format string) int64 {
	var n int64
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			n++
			continue
		}
		// Flags, width, precision, argument indexes, then the verb.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == '%' && j == i+1 {
			n++
		}
		i = j
	}
	return n
}
