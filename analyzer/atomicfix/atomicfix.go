// Package atomicfix rewrites every access to one variable or struct field
// of a package so that it is atomic, the fix for a data race under the Go
// memory model.
//
// The preferred form changes the declared type to the matching sync/atomic
// type (int32 to atomic.Int32, bool to atomic.Bool, *T to
// atomic.Pointer[T], [N]uint64 to [N]atomic.Uint64) and rewrites each
// access to a method: a load to x.Load(), x = v to x.Store(v), x += d and
// x++ to x.Add, and the sync/atomic functions already applied to &x to the
// methods they stand for. Where a type change cannot compile (the address
// is taken and passed on, the variable has an initialiser, a composite
// literal sets the field, or a value of the enclosing struct is copied) the
// function form keeps the type and wraps each access in
// atomic.LoadInt32(&x), atomic.StoreInt32(&x, v) or atomic.AddInt32(&x, d).
//
// Edits are small (an insertion after the cell, a replacement of an
// operator), so that the fixes of two cells accessed in one statement merge
// without conflict.
package atomicfix

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// A Package is what a rewrite needs to know of the package it edits.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	Info  *types.Info
	Types *types.Package

	in *inspector.Inspector
}

// NewPackage returns the package of the given files.
func NewPackage(fset *token.FileSet, files []*ast.File, info *types.Info, pkg *types.Package) *Package {
	return &Package{Fset: fset, Files: files, Info: info, Types: pkg, in: inspector.New(files)}
}

// A Fix is the rewrite of every access to one cell.
type Fix struct {
	// Form is "typed" (the declaration's type becomes a sync/atomic type)
	// or "function" (the type stays, each access calls a sync/atomic
	// function).
	Form string
	// Type is the new type of the cell's scalars (atomic.Int32), or, in
	// the function form, the suffix of the functions (Int32).
	Type string
	// Edits are the text edits, in every file that accesses the cell,
	// including the imports of sync/atomic that the files lack.
	Edits []analysis.TextEdit
	// Accesses is the number of accesses rewritten.
	Accesses int
}

// Message is the fix's one-line description.
func (f *Fix) Message(name string) string {
	if f.Form == "typed" {
		return fmt.Sprintf("Make %s an %s and access it with its methods", name, f.Type)
	}
	return fmt.Sprintf("Access %s with the sync/atomic functions for %s", name, f.Type)
}

// scalar describes the sync/atomic support for one Go type.
type scalar struct {
	typed  string     // atomic.Int32, atomic.Bool, atomic.Pointer[T]; "" if none
	value  types.Type // the type the typed form's methods take and return
	suffix string     // Int32 for atomic.LoadInt32; "" if no function takes it
	base   types.Type // the type whose pointer the functions take
	add    bool       // the typed form has Add
}

// scalarOf returns the sync/atomic support for values of type t, as written
// in package pkg.
func scalarOf(t types.Type, pkg *types.Package) (scalar, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		kind := map[types.BasicKind]struct {
			typed string
			value types.BasicKind
			fn    bool
		}{
			types.Bool:          {"atomic.Bool", types.Bool, false},
			types.Int32:         {"atomic.Int32", types.Int32, true},
			types.Int64:         {"atomic.Int64", types.Int64, true},
			types.Uint32:        {"atomic.Uint32", types.Uint32, true},
			types.Uint64:        {"atomic.Uint64", types.Uint64, true},
			types.Uintptr:       {"atomic.Uintptr", types.Uintptr, true},
			types.Int:           {"atomic.Int64", types.Int64, false},
			types.Uint:          {"atomic.Uint64", types.Uint64, false},
			types.UnsafePointer: {"", types.UnsafePointer, true},
		}
		k, ok := kind[u.Kind()]
		if !ok {
			return scalar{}, false
		}
		sc := scalar{typed: k.typed, value: types.Typ[k.value], add: u.Info()&types.IsInteger != 0}
		if k.fn {
			sc.base = types.Typ[u.Kind()]
			if u.Kind() == types.UnsafePointer {
				sc.suffix = "Pointer" // atomic.LoadPointer and friends; no typed form
			} else {
				sc.suffix = k.typed[len("atomic."):]
			}
		}
		return sc, true
	case *types.Pointer:
		if _, ok := t.(*types.Pointer); !ok {
			return scalar{}, false // a named pointer type
		}
		elem := types.TypeString(u.Elem(), types.RelativeTo(pkg))
		return scalar{typed: "atomic.Pointer[" + elem + "]", value: t}, true
	}
	return scalar{}, false
}

// cellType returns the scalar type of obj's cells and the number of array
// dimensions around it ([2][3]int32 is int32 with 2).
func cellType(obj *types.Var) (types.Type, int) {
	t, dims := obj.Type(), 0
	for {
		a, ok := t.(*types.Array)
		if !ok {
			return t, dims
		}
		t, dims = a.Elem(), dims+1
	}
}

// An access is one use of the cell in the source.
type access struct {
	cell ast.Expr         // the expression denoting the scalar (x, s.f, s.f[i])
	cur  inspector.Cursor // cursor of cell
}

// Rewrite returns the fix that makes every access to obj (a variable or a
// struct field of p) atomic, or an error saying why no rewrite applies.
// Together are the cells whose fixes are offered with obj's (the other
// racing cells): where they share obj's declaration, the edits are made to
// merge.
func (p *Package) Rewrite(obj *types.Var, together ...*types.Var) (*Fix, error) {
	if obj.Pkg() != p.Types {
		return nil, fmt.Errorf("%s is declared in package %s", obj.Name(), obj.Pkg().Path())
	}
	elem, dims := cellType(obj)
	sc, ok := scalarOf(elem, p.Types)
	if !ok {
		return nil, fmt.Errorf("sync/atomic has no type for %s", elem)
	}
	uses, err := p.uses(obj, dims)
	if err != nil {
		return nil, err
	}
	typedOK := sc.typed != ""
	if typedOK {
		if why := p.blocksTypeChange(obj, uses); why != "" {
			typedOK = false
			if sc.suffix == "" {
				return nil, fmt.Errorf("its type cannot change to %s (%s) and no sync/atomic function takes a *%s", sc.typed, why, types.TypeString(elem, types.RelativeTo(p.Types)))
			}
		}
	}
	if !typedOK && sc.suffix == "" {
		return nil, fmt.Errorf("no sync/atomic function takes a *%s", types.TypeString(elem, types.RelativeTo(p.Types)))
	}
	r := &rewriter{p: p, obj: obj, together: together, sc: sc, elem: elem, typed: typedOK, names: map[*token.File]string{}}
	if typedOK {
		if err := r.declaration(); err != nil {
			return nil, err
		}
	}
	for _, u := range uses {
		if err := r.access(u); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Fset.Position(u.cell.Pos()), err)
		}
	}
	fix := &Fix{Form: "function", Type: sc.suffix, Edits: r.edits, Accesses: len(uses)}
	if typedOK {
		fix.Form, fix.Type = "typed", sc.typed
	}
	if len(r.edits) == 0 {
		return nil, fmt.Errorf("no access to rewrite")
	}
	fix.Edits = append(fix.Edits, r.imports...)
	slices.SortStableFunc(fix.Edits, func(a, b analysis.TextEdit) int { return int(a.Pos) - int(b.Pos) })
	return fix, nil
}

// uses returns every access to obj's scalars: the uses of obj indexed dims
// times. A use of a whole array other than len, cap or a range over its
// indexes is an error.
func (p *Package) uses(obj *types.Var, dims int) ([]access, error) {
	var out []access
	for cur := range p.in.Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if p.Info.Uses[id] != obj {
			continue
		}
		cell, c := ast.Expr(id), cur
		if k, _ := c.ParentEdge(); k == edge.SelectorExpr_Sel {
			c = c.Parent()
			cell = c.Node().(ast.Expr)
		} else if k == edge.KeyValueExpr_Key {
			// A composite literal's key: blocksTypeChange decides.
			continue
		}
		for d := 0; d < dims; d++ {
			k, _ := c.ParentEdge()
			if k != edge.IndexExpr_X {
				if d == 0 && wholeArrayOK(c) {
					cell = nil
					break
				}
				return nil, fmt.Errorf("%s: %s is used as a whole array", p.Fset.Position(id.Pos()), obj.Name())
			}
			c = c.Parent()
			cell = c.Node().(ast.Expr)
		}
		if cell == nil {
			continue
		}
		out = append(out, access{cell: cell, cur: c})
	}
	return out, nil
}

// wholeArrayOK reports whether the array at c is used without reading its
// elements: len(a), cap(a), for i := range a.
func wholeArrayOK(c inspector.Cursor) bool {
	k, _ := c.ParentEdge()
	switch k {
	case edge.CallExpr_Args:
		call := c.Parent().Node().(*ast.CallExpr)
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
			return true
		}
	case edge.RangeStmt_X:
		return c.Parent().Node().(*ast.RangeStmt).Value == nil
	case edge.UnaryExpr_X:
		// &a[...] is handled per element; &a of the whole array is not.
	}
	return false
}

// blocksTypeChange returns why obj's type cannot change to a sync/atomic
// type, or "".
func (p *Package) blocksTypeChange(obj *types.Var, uses []access) string {
	for _, u := range uses {
		k, _ := u.cur.ParentEdge()
		if k == edge.UnaryExpr_X && u.cur.Parent().Node().(*ast.UnaryExpr).Op == token.AND {
			if _, ok := p.atomicCall(u.cur.Parent()); !ok {
				return fmt.Sprintf("its address is taken at %s", p.position(u.cell.Pos()))
			}
		}
	}
	if obj.IsField() {
		if why := p.structBlocked(obj); why != "" {
			return why
		}
		return ""
	}
	// A variable: its declaration must not have an initialiser.
	for cur := range p.in.Root().Preorder((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.RangeStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if p.Info.Defs[name] == obj && len(n.Values) > 0 {
					return fmt.Sprintf("it is declared with a value at %s", p.position(name.Pos()))
				}
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && p.Info.Defs[id] == obj {
					return fmt.Sprintf("it is declared with := at %s", p.position(id.Pos()))
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && p.Info.Defs[id] == obj {
					return fmt.Sprintf("it is a range variable at %s", p.position(id.Pos()))
				}
			}
		}
	}
	if isParam(obj) {
		return "it is a parameter or result"
	}
	return ""
}

// isParam reports whether obj is a function's parameter or result.
func isParam(obj *types.Var) bool {
	return obj.Kind() == types.ParamVar || obj.Kind() == types.RecvVar || obj.Kind() == types.ResultVar
}

// structBlocked returns why the struct that declares field f cannot hold a
// sync/atomic value, or "": a composite literal sets f, or a value of the
// struct is copied.
func (p *Package) structBlocked(f *types.Var) string {
	var owner types.Type
	for cur := range p.in.Root().Preorder((*ast.StructType)(nil)) {
		st := cur.Node().(*ast.StructType)
		for _, field := range st.Fields.List {
			for _, name := range field.Names {
				if p.Info.Defs[name] == f {
					owner = p.Info.TypeOf(st)
					if k, _ := cur.ParentEdge(); k == edge.TypeSpec_Type {
						owner = p.Info.Defs[cur.Parent().Node().(*ast.TypeSpec).Name].Type()
					}
				}
			}
		}
	}
	if owner == nil {
		return "its declaration is not in this package's source"
	}
	for cur := range p.in.Root().Preorder((*ast.CompositeLit)(nil)) {
		lit := cur.Node().(*ast.CompositeLit)
		if !types.Identical(p.Info.TypeOf(lit), owner) {
			continue
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				return fmt.Sprintf("a composite literal lists its fields by position at %s", p.position(lit.Pos()))
			}
			if id, ok := kv.Key.(*ast.Ident); ok && p.Info.Uses[id] == f {
				return fmt.Sprintf("a composite literal sets it at %s", p.position(kv.Pos()))
			}
		}
	}
	// A copy: an expression of the struct's type (not a literal, not an
	// address) used as a value.
	for cur := range p.in.Root().Preorder((*ast.Ident)(nil), (*ast.SelectorExpr)(nil), (*ast.IndexExpr)(nil), (*ast.StarExpr)(nil), (*ast.CallExpr)(nil)) {
		e := cur.Node().(ast.Expr)
		tv, ok := p.Info.Types[e]
		if !ok || !tv.IsValue() || !types.Identical(tv.Type, owner) {
			continue
		}
		if copies(cur) {
			return fmt.Sprintf("a value of its struct is copied at %s", p.position(e.Pos()))
		}
	}
	return ""
}

// copies reports whether the struct-valued expression at c is copied: used
// other than by selecting a field or method, taking its address, or being
// defined.
func copies(c inspector.Cursor) bool {
	k, _ := c.ParentEdge()
	switch k {
	case edge.SelectorExpr_X, edge.SelectorExpr_Sel:
		return false
	case edge.UnaryExpr_X:
		return c.Parent().Node().(*ast.UnaryExpr).Op != token.AND
	case edge.AssignStmt_Lhs, edge.ValueSpec_Names, edge.RangeStmt_Key:
		return false
	case edge.ExprStmt_X, edge.CallExpr_Fun:
		return false
	case edge.IndexExpr_X, edge.StarExpr_X:
		return false
	}
	if _, ok := c.Node().(*ast.CallExpr); ok {
		// A constructor's result: copied only if it is then stored.
		return k == edge.AssignStmt_Rhs || k == edge.ValueSpec_Values || k == edge.ReturnStmt_Results || k == edge.CallExpr_Args || k == edge.CompositeLit_Elts || k == edge.KeyValueExpr_Value
	}
	return true
}

// position is pos as file:line.
func (p *Package) position(pos token.Pos) string {
	posn := p.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", shortName(posn.Filename), posn.Line)
}

// shortName is the base name of a file path.
func shortName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == '\\' {
			return path[i+1:]
		}
	}
	return path
}

// text prints e as Go source.
func (p *Package) text(e ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, p.Fset, e); err != nil {
		return types.ExprString(e.(ast.Expr))
	}
	return b.String()
}

// file returns the syntax tree of the file containing pos.
func (p *Package) file(pos token.Pos) *ast.File {
	for _, f := range p.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// A rewriter collects the edits of one fix.
type rewriter struct {
	p     *Package
	obj   *types.Var
	sc    scalar
	elem  types.Type // the declared scalar type
	typed bool
	// together are the cells fixed with obj.
	together []*types.Var

	edits   []analysis.TextEdit
	imports []analysis.TextEdit
	names   map[*token.File]string // the name of sync/atomic in each file
}

// insert adds an insertion of text at pos.
func (r *rewriter) insert(pos token.Pos, text string) {
	r.edits = append(r.edits, analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)})
}

// replace adds a replacement of [pos, end) by text.
func (r *rewriter) replace(pos, end token.Pos, text string) {
	r.edits = append(r.edits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text)})
}

// atomicName returns the name of package sync/atomic in the file at pos,
// adding the import when the file lacks it.
func (r *rewriter) atomicName(pos token.Pos) (string, error) {
	tf := r.p.Fset.File(pos)
	if name, ok := r.names[tf]; ok {
		return name, nil
	}
	file := r.p.file(pos)
	if file == nil {
		return "", fmt.Errorf("no syntax for the file")
	}
	name, edits, ok := Import(r.p.Fset, file, r.p.Types, pos)
	if !ok {
		return "", fmt.Errorf("the name atomic means something else in %s", shortName(tf.Name()))
	}
	r.names[tf] = name
	r.imports = append(r.imports, edits...)
	return name, nil
}

// qualified replaces the leading "atomic." of a sync/atomic name by the
// file's name for the package.
func qualified(name, pkg string) string {
	return pkg + name[len("atomic"):]
}

// typeText returns t as written in the package.
func (r *rewriter) typeText(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(r.p.Types))
}

// needsConversion reports whether values of the declared type must be
// converted to and from the sync/atomic type's value type.
func (r *rewriter) needsConversion() bool {
	return r.typed && !types.Identical(r.elem, r.sc.value)
}

// declaration changes the type in obj's declaration.
func (r *rewriter) declaration() error {
	for cur := range r.p.in.Root().Preorder((*ast.Field)(nil), (*ast.ValueSpec)(nil)) {
		var names []*ast.Ident
		var typ ast.Expr
		switch n := cur.Node().(type) {
		case *ast.Field:
			names, typ = n.Names, n.Type
		case *ast.ValueSpec:
			names, typ = n.Names, n.Type
		}
		i := slices.IndexFunc(names, func(id *ast.Ident) bool { return r.p.Info.Defs[id] == r.obj })
		if i < 0 {
			continue
		}
		if typ == nil {
			return fmt.Errorf("%s is declared without a type", r.obj.Name())
		}
		name, err := r.atomicName(typ.Pos())
		if err != nil {
			return err
		}
		// The scalar type inside the array types.
		scalarExpr := typ
		prefix := ""
		for {
			at, ok := scalarExpr.(*ast.ArrayType)
			if !ok {
				break
			}
			prefix += "[" + r.p.text(at.Len) + "]"
			scalarExpr = at.Elt
		}
		newType := qualified(r.sc.typed, name)
		if len(names) == 1 || r.allTogether(names) {
			// Every name becomes atomic: the fixes of the names change
			// the one type, an edit they share.
			r.replace(scalarExpr.Pos(), scalarExpr.End(), newType)
			return nil
		}
		// One of several names: remove it with one comma beside it, and
		// declare it on its own. The comma is an edit of its own, so that
		// the fixes of two neighbours delete it once.
		r.replace(names[i].Pos(), names[i].End(), "")
		if i+1 < len(names) {
			r.replace(names[i].End(), names[i+1].Pos(), "")
		} else {
			r.replace(names[i-1].End(), names[i].Pos(), "")
		}
		decl := names[i].Name + " " + prefix + newType
		if _, ok := cur.Node().(*ast.Field); ok {
			r.insert(cur.Node().End(), "\n"+indent(r.p, cur.Node().Pos())+decl)
		} else {
			parent := cur.Parent().Node().(*ast.GenDecl)
			if parent.Lparen.IsValid() {
				r.insert(cur.Node().End(), "\n"+indent(r.p, cur.Node().Pos())+decl)
			} else {
				r.insert(parent.End(), "\n"+indent(r.p, parent.Pos())+"var "+decl)
			}
		}
		return nil
	}
	return fmt.Errorf("the declaration of %s is not in this package's source", r.obj.Name())
}

// allTogether reports whether every name of a declaration is obj or a cell
// fixed with it.
func (r *rewriter) allTogether(names []*ast.Ident) bool {
	for _, id := range names {
		def := r.p.Info.Defs[id]
		if def != r.obj && !slices.ContainsFunc(r.together, func(v *types.Var) bool { return v == def }) {
			return false
		}
	}
	return true
}

// indent returns the white space before the line of pos.
func indent(p *Package, pos token.Pos) string {
	tf := p.Fset.File(pos)
	file := p.file(pos)
	if tf == nil || file == nil {
		return "\t"
	}
	col := p.Fset.Position(pos).Column - 1
	var b bytes.Buffer
	for range col {
		b.WriteByte('\t')
	}
	// Columns count bytes; Go source is indented with tabs.
	return b.String()
}
