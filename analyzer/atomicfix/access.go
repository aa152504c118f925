package atomicfix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// atomicOps are the sync/atomic operations that have a method of the same
// name on the typed atomics.
var atomicOps = []string{"CompareAndSwap", "Load", "Store", "Swap", "Add", "And", "Or"}

// atomicCall returns the operation of the sync/atomic function call whose
// first argument is the address expression at c (atomic.AddInt32(&x, 1) is
// "Add").
func (p *Package) atomicCall(c inspector.Cursor) (string, bool) {
	if k, i := c.ParentEdge(); k != edge.CallExpr_Args || i != 0 {
		return "", false
	}
	call := c.Parent().Node().(*ast.CallExpr)
	fn, ok := typeutil.Callee(p.Info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return "", false
	}
	for _, op := range atomicOps {
		if strings.HasPrefix(fn.Name(), op) {
			return op, true
		}
	}
	return "", false
}

// access rewrites one access.
func (r *rewriter) access(u access) error {
	cell, c := u.cell, u.cur
	k, _ := c.ParentEdge()
	switch k {
	case edge.AssignStmt_Lhs:
		as := c.Parent().Node().(*ast.AssignStmt)
		if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return fmt.Errorf("%s is assigned together with other values; split the assignment", r.p.text(cell))
		}
		return r.store(cell, as.Tok, as.Rhs[0])
	case edge.IncDecStmt_X:
		st := c.Parent().Node().(*ast.IncDecStmt)
		return r.incDec(cell, st)
	case edge.UnaryExpr_X:
		ue := c.Parent().Node().(*ast.UnaryExpr)
		if ue.Op != token.AND {
			break
		}
		if op, ok := r.p.atomicCall(c.Parent()); ok {
			if r.typed {
				r.methodFromFunc(cell, c.Parent().Parent().Node().(*ast.CallExpr), op)
			}
			return nil
		}
		// The function form leaves an address passed on as it is.
		return nil
	case edge.RangeStmt_Key, edge.RangeStmt_Value:
		return fmt.Errorf("%s is assigned by a range clause", r.p.text(cell))
	}
	return r.load(cell)
}

// pointer returns the text that opens and closes the address of a cell as
// the sync/atomic functions take it: "&" and "", or "(*int32)(&" and ")"
// for a named type.
func (r *rewriter) pointer() (string, string) {
	if types.Identical(r.elem, r.sc.base) {
		return "&", ""
	}
	return "(*" + r.typeText(r.sc.base) + ")(&", ")"
}

// conv returns the text that converts a value of the declared type to the
// typed atomic's value type: "int64(" and ")", or "" and "".
func (r *rewriter) conv() (string, string) {
	if !r.needsConversion() {
		return "", ""
	}
	return r.typeText(r.sc.value) + "(", ")"
}

// load rewrites a read of cell.
func (r *rewriter) load(cell ast.Expr) error {
	if r.typed {
		if r.needsConversion() {
			r.insert(cell.Pos(), r.typeText(r.elem)+"(")
			r.appendTo(cell, ".Load())")
		} else {
			r.appendTo(cell, ".Load()")
		}
		return nil
	}
	name, err := r.atomicName(cell.Pos())
	if err != nil {
		return err
	}
	open, close := r.pointer()
	prefix, suffix := name+".Load"+r.sc.suffix+"("+open, close+")"
	if !types.Identical(r.elem, r.sc.base) {
		// The function returns the base type: convert back.
		prefix, suffix = r.typeText(r.elem)+"("+prefix, suffix+")"
	}
	r.insert(cell.Pos(), prefix)
	r.appendTo(cell, suffix)
	return nil
}

// appendTo adds text after cell. It replaces the last byte of cell rather
// than inserting at its end, so that when cell ends an expression another
// fix closes there (n.next = s.head, with both made atomic), the closing
// insertion comes after this text once the fixes are merged: edits are
// applied in the order of their start.
func (r *rewriter) appendTo(cell ast.Expr, text string) {
	src := r.p.text(cell)
	if last := len(src) - 1; last >= 0 && src[last] < utf8.RuneSelf {
		r.replace(cell.End()-1, cell.End(), src[last:]+text)
		return
	}
	r.insert(cell.End(), text)
}

// loadText returns the source of a load of cell, for a read inside an
// operator assignment.
func (r *rewriter) loadText(cell ast.Expr, name string) string {
	text := r.p.text(cell)
	if r.typed {
		if r.needsConversion() {
			return r.typeText(r.elem) + "(" + text + ".Load())"
		}
		return text + ".Load()"
	}
	open, close := r.pointer()
	load := name + ".Load" + r.sc.suffix + "(" + open + text + close + ")"
	if !types.Identical(r.elem, r.sc.base) {
		load = r.typeText(r.elem) + "(" + load + ")"
	}
	return load
}

// negatable reports whether the cell's values have a sign.
func (r *rewriter) signed() bool {
	b, ok := r.elem.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned == 0
}

// store rewrites cell tok rhs.
func (r *rewriter) store(cell ast.Expr, tok token.Token, rhs ast.Expr) error {
	name, err := r.atomicName(cell.Pos())
	if err != nil {
		return err
	}
	valueType := r.sc.value
	if !r.typed {
		valueType = r.sc.base
	}
	convert := func(open string) string {
		if types.Identical(r.elem, valueType) {
			return open
		}
		return open + r.typeText(valueType) + "("
	}
	closeConv := ""
	if !types.Identical(r.elem, valueType) {
		closeConv = ")"
	}
	// call opens the operation: x.Store( or atomic.StoreInt32(&x, ...
	call := func(op string) {
		if r.typed {
			r.replace(cell.End(), rhs.Pos(), convert("."+op+"("))
			return
		}
		open, close := r.pointer()
		r.insert(cell.Pos(), name+"."+op+r.sc.suffix+"("+open)
		r.replace(cell.End(), rhs.Pos(), convert(close+", "))
	}
	switch {
	case tok == token.ASSIGN:
		call("Store")
		r.insert(rhs.End(), closeConv+")")
	case tok == token.ADD_ASSIGN && r.sc.add:
		call("Add")
		r.insert(rhs.End(), closeConv+")")
	case tok == token.SUB_ASSIGN && r.sc.add && r.signed():
		call("Add")
		r.insert(rhs.Pos(), "-(")
		r.insert(rhs.End(), ")"+closeConv+")")
	case tok == token.SUB_ASSIGN && r.sc.add:
		// Unsigned: adding ^(d-1) subtracts d.
		call("Add")
		r.insert(rhs.Pos(), "^(")
		r.insert(rhs.End(), " - 1)"+closeConv+")")
	default:
		op, ok := binaryOf[tok]
		if !ok {
			return fmt.Errorf("%s %s cannot be made atomic", r.p.text(cell), tok)
		}
		// x op= v becomes a load and a store: not one atomic step, as the
		// original was not, but free of races.
		call("Store")
		load := r.loadText(cell, name)
		r.insert(rhs.Pos(), load+" "+op.String()+" (")
		r.insert(rhs.End(), ")"+closeConv+")")
	}
	return nil
}

// binaryOf maps an assignment operator to its binary operator.
var binaryOf = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.SHL_ASSIGN: token.SHL,
	token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
}

// incDec rewrites cell++ and cell--.
func (r *rewriter) incDec(cell ast.Expr, st *ast.IncDecStmt) error {
	if !r.sc.add {
		return fmt.Errorf("%s%s on a non-integer", r.p.text(cell), st.Tok)
	}
	valueType := r.sc.value
	if !r.typed {
		valueType = r.sc.base
	}
	delta := "1"
	if st.Tok == token.DEC {
		delta = "-1"
		if !r.signed() {
			delta = "^" + r.typeText(valueType) + "(0)"
		}
	}
	if r.typed {
		r.replace(cell.End(), st.End(), ".Add("+delta+")")
		return nil
	}
	name, err := r.atomicName(cell.Pos())
	if err != nil {
		return err
	}
	open, close := r.pointer()
	r.insert(cell.Pos(), name+".Add"+r.sc.suffix+"("+open)
	r.replace(cell.End(), st.End(), close+", "+delta+")")
	return nil
}

// methodFromFunc rewrites atomic.OpT(&cell, args...) to cell.Op(args...).
func (r *rewriter) methodFromFunc(cell ast.Expr, call *ast.CallExpr, op string) {
	r.replace(call.Pos(), cell.Pos(), "")
	if len(call.Args) == 1 {
		r.replace(cell.End(), call.End(), "."+op+"()")
		return
	}
	r.replace(cell.End(), call.Args[1].Pos(), "."+op+"(")
}

// Import returns the name under which file can refer to package sync/atomic
// at pos, and the edits that add the import when the file lacks it; ok is
// false when the name "atomic" means something else at pos.
func Import(fset *token.FileSet, file *ast.File, pkg *types.Package, pos token.Pos) (name string, edits []analysis.TextEdit, ok bool) {
	for _, imp := range file.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "sync/atomic" {
			if imp.Name == nil {
				return "atomic", nil, true
			}
			if imp.Name.Name != "_" && imp.Name.Name != "." {
				return imp.Name.Name, nil, true
			}
		}
	}
	// The file must import it; "atomic" must then mean that package at pos.
	if scope := pkg.Scope().Innermost(pos); scope != nil {
		if _, obj := scope.LookupParent("atomic", pos); obj != nil {
			return "", nil, false
		}
	}
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			for _, spec := range gd.Specs {
				is := spec.(*ast.ImportSpec)
				if path, _ := strconv.Unquote(is.Path.Value); path > "sync/atomic" {
					at := is.Pos()
					if is.Doc != nil {
						at = is.Doc.Pos()
					}
					return "atomic", []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\"sync/atomic\"\n\t")}}, true
				}
			}
			return "atomic", []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t\"sync/atomic\"\n")}}, true
		}
	}
	// No parenthesised import declaration. A single one-line import becomes
	// a parenthesised declaration of both; otherwise add a declaration after
	// the last import declaration, or after the package clause.
	var imports []*ast.GenDecl
	for _, decl := range file.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			imports = append(imports, gd)
		}
	}
	if len(imports) == 1 && len(imports[0].Specs) == 1 && imports[0].Doc == nil {
		gd := imports[0]
		is := gd.Specs[0].(*ast.ImportSpec)
		if is.Comment == nil {
			spec := is.Path.Value
			if is.Name != nil {
				spec = is.Name.Name + " " + spec
			}
			lines := []string{spec, `"sync/atomic"`}
			if path, _ := strconv.Unquote(is.Path.Value); path > "sync/atomic" {
				lines[0], lines[1] = lines[1], lines[0]
			}
			text := "import (\n\t" + strings.Join(lines, "\n\t") + "\n)"
			return "atomic", []analysis.TextEdit{{Pos: gd.Pos(), End: gd.End(), NewText: []byte(text)}}, true
		}
	}
	at := file.Name.End()
	if len(imports) > 0 {
		at = imports[len(imports)-1].End()
	}
	return "atomic", []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\nimport \"sync/atomic\"")}}, true
}
