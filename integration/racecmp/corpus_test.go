package racecmp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A system is one package of the corpus: its //fencecheck:system function,
// the verdict its package documentation declares, and an index of its
// functions and calls for placing the race detector's atomic accesses.
type system struct {
	pkg      string // directory, package name and last element of the import path
	fn       string // the //fencecheck:system function
	expected string // "racy" or "race-free"
	index    *callIndex
}

// expectedRE finds the declared verdict in a package comment.
var expectedRE = regexp.MustCompile(`(?m)^Expected: (racy|race-free)\.$`)

// loadCorpus parses every package under root (one directory each) and
// returns its systems in directory order.
func loadCorpus(root string) ([]*system, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var systems []*system
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		s, err := loadSystem(root, e.Name())
		if err != nil {
			return nil, err
		}
		systems = append(systems, s)
	}
	return systems, nil
}

// loadSystem parses package dir of the corpus.
func loadSystem(root, dir string) (*system, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, err
	}
	s := &system{pkg: dir, index: newCallIndex(fset, dir)}
	for _, fname := range names {
		if strings.HasSuffix(fname, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, fname, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if f.Name.Name != dir {
			return nil, fmt.Errorf("%s: package %s, want the directory's name", fname, f.Name.Name)
		}
		s.index.addFile(dir+"/"+filepath.Base(fname), f)
		if f.Doc != nil {
			if m := expectedRE.FindStringSubmatch(f.Doc.Text()); m != nil {
				s.expected = m[1]
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				if strings.TrimSpace(c.Text) == "//fencecheck:system" {
					if s.fn != "" {
						return nil, fmt.Errorf("%s: two systems, %s and %s", dir, s.fn, fd.Name.Name)
					}
					s.fn = fd.Name.Name
					s.index.system = fd
				}
			}
		}
	}
	switch {
	case len(s.index.files) == 0:
		return nil, fmt.Errorf("%s: no Go files", dir)
	case s.fn == "":
		return nil, fmt.Errorf("%s: no //fencecheck:system function", dir)
	case s.index.system.Recv != nil:
		return nil, fmt.Errorf("%s: system %s is a method", dir, s.fn)
	case s.expected == "":
		return nil, fmt.Errorf("%s: the package comment declares no verdict (%q)", dir, "Expected: racy.")
	}
	return s, nil
}

// A callIndex knows, for one package, which same-package functions each
// source line calls and which function each go statement starts. The race
// detector reports a sync/atomic access without the frame of the function
// that makes the call (the ABI wrapper of the sync/atomic function records
// no caller), so such an access is placed by the index: somewhere in the
// functions that the innermost reported line calls, or in the goroutine's
// function when no line of the package is reported.
type callIndex struct {
	fset   *token.FileSet
	pkg    string
	files  map[string]*ast.File       // by corpus-relative name
	funcs  map[string][]*ast.FuncDecl // functions and methods by name
	calls  []call
	goFns  map[string]ast.Expr // go statement position (file:line) → the function it calls
	system *ast.FuncDecl
}

// A call is a call expression of the package.
type call struct {
	file     string
	from, to int    // the lines it spans
	callee   string // the called function's or method's name
}

func newCallIndex(fset *token.FileSet, pkg string) *callIndex {
	return &callIndex{
		fset:  fset,
		pkg:   pkg,
		files: map[string]*ast.File{},
		funcs: map[string][]*ast.FuncDecl{},
		goFns: map[string]ast.Expr{},
	}
}

// addFile indexes file f, known as name.
func (x *callIndex) addFile(name string, f *ast.File) {
	x.files[name] = f
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			x.funcs[fd.Name.Name] = append(x.funcs[fd.Name.Name], fd)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			c := call{file: name, from: x.line(n.Pos()), to: x.line(n.End())}
			switch fn := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				c.callee = fn.Name
			case *ast.SelectorExpr:
				c.callee = fn.Sel.Name
			}
			if c.callee != "" {
				x.calls = append(x.calls, c)
			}
		case *ast.GoStmt:
			x.goFns[fmt.Sprintf("%s:%d", name, x.line(n.Pos()))] = ast.Unparen(n.Call.Fun)
		}
		return true
	})
}

// goFunc returns the function (an *ast.FuncLit or *ast.FuncDecl) that the
// go statement at pos (file:line) starts, or nil.
func (x *callIndex) goFunc(pos string) ast.Node {
	switch fn := x.goFns[pos].(type) {
	case *ast.FuncLit:
		return fn
	case *ast.Ident:
		if fds := x.funcs[fn.Name]; len(fds) == 1 {
			return fds[0]
		}
	}
	return nil
}

func (x *callIndex) line(p token.Pos) int { return x.fset.Position(p).Line }

// fileOf returns the corpus-relative name of the file holding n.
func (x *callIndex) fileOf(n ast.Node) string {
	return x.pkg + "/" + filepath.Base(x.fset.Position(n.Pos()).Filename)
}

// calleesAt returns the lines of the same-package functions called by the
// calls that span line of file, and of the functions those call, in turn.
func (x *callIndex) calleesAt(file string, line int) []string {
	lines := map[string]bool{}
	seen := map[*ast.FuncDecl]bool{}
	x.addCallees(file, line, line, lines, seen)
	return sortedKeys(lines)
}

// bodyOf returns the lines of fn's body (an *ast.FuncLit or *ast.FuncDecl)
// and of the same-package functions it calls, transitively.
func (x *callIndex) bodyOf(fn ast.Node) []string {
	lines := map[string]bool{}
	seen := map[*ast.FuncDecl]bool{}
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncLit:
		body = fn.Body
	case *ast.FuncDecl:
		body = fn.Body
		seen[fn] = true
	}
	if body == nil {
		return nil
	}
	file := x.fileOf(body)
	from, to := x.line(body.Lbrace), x.line(body.Rbrace)
	for l := from; l <= to; l++ {
		lines[fmt.Sprintf("%s:%d", file, l)] = true
	}
	x.addCallees(file, from, to, lines, seen)
	return sortedKeys(lines)
}

// addCallees adds to lines the bodies of the functions called by the calls
// of file that overlap lines [from, to], transitively.
func (x *callIndex) addCallees(file string, from, to int, lines map[string]bool, seen map[*ast.FuncDecl]bool) {
	for _, c := range x.calls {
		if c.file != file || c.to < from || c.from > to {
			continue
		}
		for _, fd := range x.funcs[c.callee] {
			if seen[fd] {
				continue
			}
			seen[fd] = true
			f := x.fileOf(fd.Body)
			b, e := x.line(fd.Body.Lbrace), x.line(fd.Body.Rbrace)
			for l := b; l <= e; l++ {
				lines[fmt.Sprintf("%s:%d", f, l)] = true
			}
			x.addCallees(f, b, e, lines, seen)
		}
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
