package analyzer

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/analyzer/atomicfix"
)

// atomicFuncs maps the basic types that package sync/atomic has functions
// for to the suffix of those functions.
var atomicFuncs = map[types.BasicKind]string{
	types.Int32:   "Int32",
	types.Int64:   "Int64",
	types.Uint32:  "Uint32",
	types.Uint64:  "Uint64",
	types.Uintptr: "Uintptr",
}

// atomicTypes maps basic kinds to the sync/atomic type that replaces them.
var atomicTypes = map[types.BasicKind]string{
	types.Bool:    "atomic.Bool",
	types.Int32:   "atomic.Int32",
	types.Int64:   "atomic.Int64",
	types.Uint32:  "atomic.Uint32",
	types.Uint64:  "atomic.Uint64",
	types.Uintptr: "atomic.Uintptr",
	types.Int:     "atomic.Int64",
	types.Uint:    "atomic.Uint64",
}

// storeFix returns the advice for the plain store of transition t of
// process q, and, where the store's type and form allow it, a fix that
// rewrites it to the matching sync/atomic call.
func (s *system) storeFix(q, t int) (string, *analysis.SuggestedFix) {
	const generic = "follow it with a sync/atomic read-modify-write (any atomic.Add, Swap or CompareAndSwap drains the store buffer)"
	if q >= len(s.sys.Origins) || t >= len(s.sys.Origins[q]) {
		return generic, nil
	}
	if obj, name := s.cellOf(q, t); obj != nil {
		if f := s.r.raceFixes[obj]; f != nil {
			// The race's fix makes every access atomic, this store too:
			// one fix for both findings, so that applying both merges.
			return fmt.Sprintf("make every access to %s atomic, as the race on it needs (the atomic store's XCHG drains the store buffer)", name), f
		}
	}
	o := s.sys.Origins[q][t]
	if o.Target == nil || o.Type == nil {
		return generic, nil
	}
	// The stored location as written in the statement.
	lhs := o.Target
	target := s.exprText(lhs)
	basic, _ := o.Type.Underlying().(*types.Basic)
	if basic == nil {
		return generic, nil
	}
	suffix, ok := atomicFuncs[basic.Kind()]
	if !ok || !types.Identical(o.Type, types.Typ[basic.Kind()]) {
		// No sync/atomic function takes a pointer to this type.
		if at, ok := atomicTypes[basic.Kind()]; ok {
			return fmt.Sprintf("change the type of %s to %s and store with its Store method (XCHG drains the store buffer)", target, at), nil
		}
		return generic, nil
	}
	call, edit := s.storeCall(o.Node, lhs, basic, suffix)
	if call == "" {
		return fmt.Sprintf("make it atomic.Store%s(&%s, ...) (XCHG drains the store buffer)", suffix, target), nil
	}
	name, importEdits, ok := s.atomicImport(o.Node.Pos())
	if !ok {
		return fmt.Sprintf("make it %s (XCHG drains the store buffer)", strings.ReplaceAll(call, "$atomic", "atomic")), nil
	}
	call = strings.ReplaceAll(call, "$atomic", name)
	advice := fmt.Sprintf("make it %s (XCHG drains the store buffer)", call)
	if strings.Contains(call, ".Add") {
		advice = fmt.Sprintf("make it %s (LOCK XADD drains the store buffer)", call)
	}
	edit.NewText = []byte(call)
	return advice, &analysis.SuggestedFix{
		Message:   "Use " + call[:strings.Index(call, "(")],
		TextEdits: append([]analysis.TextEdit{edit}, importEdits...),
	}
}

// storeCall returns the text of the sync/atomic call that replaces the
// statement node storing to target ($atomic standing for the package name),
// and the edit's range; "" when the statement has another form.
func (s *system) storeCall(node ast.Node, target ast.Expr, basic *types.Basic, suffix string) (string, analysis.TextEdit) {
	edit := analysis.TextEdit{}
	addr := "&" + s.exprText(target)
	switch n := node.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
			return "", edit
		}
		edit.Pos, edit.End = n.Pos(), n.End()
		rhs := s.exprText(n.Rhs[0])
		switch n.Tok {
		case token.ASSIGN:
			return fmt.Sprintf("$atomic.Store%s(%s, %s)", suffix, addr, rhs), edit
		case token.ADD_ASSIGN:
			return fmt.Sprintf("$atomic.Add%s(%s, %s)", suffix, addr, rhs), edit
		case token.SUB_ASSIGN:
			if basic.Info()&types.IsUnsigned == 0 {
				return fmt.Sprintf("$atomic.Add%s(%s, -(%s))", suffix, addr, rhs), edit
			}
		}
	case *ast.IncDecStmt:
		edit.Pos, edit.End = n.Pos(), n.End()
		if n.Tok == token.INC {
			return fmt.Sprintf("$atomic.Add%s(%s, 1)", suffix, addr), edit
		}
		if basic.Info()&types.IsUnsigned == 0 {
			return fmt.Sprintf("$atomic.Add%s(%s, -1)", suffix, addr), edit
		}
	}
	return "", edit
}

// exprText prints e as Go source.
func (s *system) exprText(e ast.Expr) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, s.r.pass.Fset, e); err != nil {
		return types.ExprString(e)
	}
	return b.String()
}

// atomicImport returns the name under which the file containing pos can
// refer to package sync/atomic at pos, and the edits that add the import when
// the file lacks it; ok is false when the name "atomic" is taken at pos.
func (s *system) atomicImport(pos token.Pos) (name string, edits []analysis.TextEdit, ok bool) {
	file := s.r.ast[s.r.pass.Fset.File(pos)]
	if file == nil {
		return "", nil, false
	}
	return atomicfix.Import(s.r.pass.Fset, file, s.r.pass.Pkg, pos)
}
