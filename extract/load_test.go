package extract_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"testing"
)

// loaded is a parsed and type-checked testdata package.
type loaded struct {
	fset  *token.FileSet
	pkg   *types.Package
	files []*ast.File
	info  *types.Info
}

var sharedImporter = importer.Default()

// load parses and type-checks testdata/src/<name> with the standard
// library's export data only.
func load(tb testing.TB, name string) *loaded {
	tb.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join("testdata", "src", name, "*.go"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no Go files for %s: %v", name, err)
	}
	sort.Strings(paths)
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: sharedImporter, GoVersion: "go1.26"}
	pkg, err := conf.Check(name, fset, files, info)
	if err != nil {
		tb.Fatalf("type-checking %s: %v", name, err)
	}
	return &loaded{fset, pkg, files, info}
}
