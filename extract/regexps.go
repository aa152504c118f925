package extract

import (
	"fmt"
	"go/token"
	"regexp"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// A regular expression compiled from a constant pattern (var identRegexp =
// regexp.MustCompile("^[a-zA-Z_:.]+$"), as a metrics library validates
// names) is compiled by Go's own regexp package while the system is
// lowered: its value is an opaque value that holds it, which may be stored
// and loaded like a pointer that nothing writes. Matching it against a
// constant string computes Go's answer; any other use of it stays a call
// the model does not run.

// certainPanic returns Go's panic message when the call of fn on args
// panics whatever the run: regexp.MustCompile of a constant pattern that
// does not compile (var re = regexp.MustCompile("[")), strconv.FormatInt,
// FormatUint, AppendInt and AppendUint in a constant base outside 2 to 36,
// strings.Repeat of a negative constant count, strings.NewReplacer of an
// odd number of strings, Grow of a strings.Builder or bytes.Buffer by a
// negative constant; ok is false otherwise.
func (s *system) certainPanic(fn *ssa.Function, args []value) (msg string, ok bool) {
	if fn.Pkg == nil {
		return "", false
	}
	constArg := func(i int) (int64, bool) {
		if i >= len(args) {
			return 0, false
		}
		return args[i].constant()
	}
	if growMethod(fn) != "" {
		if n, ok := constArg(1); ok && n < 0 {
			return growMethod(fn) + ": negative count", true
		}
		return "", false
	}
	if fn.Signature.Recv() != nil {
		return "", false
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "strings.NewReplacer":
		if len(args) == 1 && args[0].kind == vSlice && args[0].sl.dlen == nil && args[0].sl.len%2 == 1 {
			return "strings.NewReplacer: odd argument count", true
		}
	case "regexp.MustCompile":
		if len(args) != 1 {
			return "", false
		}
		pat, known := s.stringOf(args[0])
		if !known {
			return "", false
		}
		if _, err := regexp.Compile(pat); err != nil {
			return fmt.Sprintf("regexp: Compile(%s): %v", strconv.Quote(pat), err), true
		}
	case "strconv.FormatInt", "strconv.FormatUint":
		if base, ok := constArg(1); ok && (base < 2 || base > 36) {
			return "strconv: illegal AppendInt/FormatInt base", true
		}
	case "strconv.AppendInt", "strconv.AppendUint":
		if base, ok := constArg(2); ok && (base < 2 || base > 36) {
			return "strconv: illegal AppendInt/FormatInt base", true
		}
	case "strings.Repeat":
		if n, ok := constArg(1); ok && n < 0 {
			return "strings: negative Repeat count", true
		}
	}
	return "", false
}

// runtimePanics emits, from cur, the panic of a call that certainPanic
// knows for constants, where the argument is known only at run time
// (strings.Repeat of a loop's count), and returns the location from which
// the call goes on when it does not panic.
func (p *proc) runtimePanics(fn *ssa.Function, args []value, pos token.Pos, cur int) int {
	if fn.Pkg == nil {
		return cur
	}
	var bad model.Expr
	var msg string
	arg := func(i int) (model.Expr, bool) {
		if i >= len(args) || args[i].kind != vInt {
			return nil, false
		}
		_, isConst := args[i].constant()
		return args[i].e, !isConst
	}
	name := fn.Pkg.Pkg.Path() + "." + fn.Name()
	if what := growMethod(fn); what != "" {
		name = "Grow"
		msg = what + ": negative count"
	} else if fn.Signature.Recv() != nil {
		return cur
	}
	switch name {
	case "Grow":
		if n, ok := arg(1); ok {
			bad = model.Bin(model.OpLt, n, model.C(0))
		}
	case "strconv.FormatInt", "strconv.FormatUint":
		if base, ok := arg(1); ok {
			bad = or(model.Bin(model.OpLt, base, model.C(2)), model.Bin(model.OpGt, base, model.C(36)))
			msg = "strconv: illegal AppendInt/FormatInt base"
		}
	case "strings.Repeat":
		if n, ok := arg(1); ok {
			bad = model.Bin(model.OpLt, n, model.C(0))
			msg = "strings: negative Repeat count"
		}
	}
	if bad == nil {
		return cur
	}
	p.panicAt(panicSite{loc: p.emit(cur, model.GuardOp(bad), pos, Origin{}), name: msg, pos: pos})
	return p.emit(cur, model.GuardOp(model.Not(bad)), pos, Origin{})
}

// growMethod returns the name Go's panic gives a Grow method whose count
// must not be negative ("strings.Builder.Grow", "bytes.Buffer.Grow"), or
// "" for any other function.
func growMethod(fn *ssa.Function) string {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Name() != "Grow" {
		return ""
	}
	switch {
	case isNamed(deref(recv.Type()), "strings", "Builder"):
		return "strings.Builder.Grow"
	case isNamed(deref(recv.Type()), "bytes", "Buffer"):
		return "bytes.Buffer.Grow"
	}
	return ""
}

// regexpCall computes regexp.MustCompile and regexp.Compile of a constant
// pattern, and the methods MatchString and String of such a regexp on
// constants; ok is false for any other call.
func (s *system) regexpCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "regexp" {
		return value{}, false
	}
	if fn.Signature.Recv() == nil {
		if fn.Name() != "MustCompile" && fn.Name() != "Compile" || len(args) != 1 {
			return value{}, false
		}
		pat, ok := s.stringOf(args[0])
		if !ok {
			return value{}, false
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			// MustCompile panics (certainPanic), Compile returns the
			// error: left to the paths of calls the model does not run.
			return value{}, false
		}
		v := opaque("a regexp compiled from " + quoteShort(pat))
		v.re = re
		if fn.Name() == "Compile" {
			return value{kind: vTuple, tup: []value{v, {kind: vNil}}}, true
		}
		return v, true
	}
	if len(args) == 0 || args[0].re == nil {
		return value{}, false
	}
	re := args[0].re
	switch fn.Name() {
	case "MatchString":
		str, ok := s.stringOf(args[1])
		if !ok {
			s.unsupported(pos, "matching a string known only at run time against the regexp %s (only constants are matched)", quoteShort(re.String()))
		}
		return constVal(b2i(re.MatchString(str))), true
	case "String":
		return constVal(s.intern(re.String())), true
	}
	return value{}, false
}

// quoteShort quotes str, cut to a length a message can show.
func quoteShort(str string) string {
	const max = 40
	if len(str) > max {
		str = str[:max] + "…"
	}
	return "`" + str + "`"
}
