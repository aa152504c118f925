package extract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"testing"
)

// TestReachedPackages checks which packages a package's code may reach by
// calls, and so are read from source: a package reached only through a
// method that a call through an interface may call (promoted from an
// embedded struct) is, one whose functions only an uncalled method uses is
// not, and each package read from source comes after those it imports.
func TestReachedPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list -export")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "reach", "a"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, "a.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	// The package as a driver gives it: type-checked against export data.
	l := &progLoader{fset: fset}
	if l.list, l.order, err = goList(dir, []string{"example.com/reach/b"}, false, nil); err != nil {
		t.Fatal(err)
	}
	universe := map[string]*types.Package{}
	info := newInfo()
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		return l.importFrom(universe, nil, path)
	})}
	pkg, err := conf.Check("example.com/reach/a", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	wp, noSource, err := loadWholeProgram(fset, pkg, []*ast.File{f}, info)
	if err != nil || len(noSource) > 0 {
		t.Fatalf("loadWholeProgram: %v, %v", err, noSource)
	}
	var got []string
	for _, d := range wp.deps {
		got = append(got, d.pkg.Path())
	}
	want := []string{"example.com/reach/c", "example.com/reach/b"}
	if !slices.Equal(got, want) {
		t.Fatalf("read from source: %v, want %v", got, want)
	}
	// One universe: the type b.New returns, seen by a, is b's own.
	newFn := wp.pkg.Imports()[0].Scope().Lookup("New")
	if wp.deps[1].pkg.Scope().Lookup("New") != newFn {
		t.Errorf("package a imports another package b than the one read from source")
	}
}

// TestGopathEnv checks the recognition of a package in a GOPATH tree, whose
// imports a module-mode go list does not find (analysistest's testdata).
func TestGopathEnv(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tt := range []struct {
		dir, pkg string
		want     []string
	}{
		{filepath.Join(sep+"w", "testdata", "src", "corpus", "q"), "corpus/q",
			[]string{"GOPATH=" + filepath.Join(sep+"w", "testdata"), "GO111MODULE=off", "GOWORK=off"}},
		{filepath.Join(sep+"w", "mod", "corpus", "q"), "corpus/q", nil},
		{filepath.Join(sep+"w", "src", "other", "q"), "corpus/q", nil},
		{filepath.Join(sep+"w", "src"), "", nil},
	} {
		if got := gopathEnv(tt.dir, tt.pkg); !slices.Equal(got, tt.want) {
			t.Errorf("gopathEnv(%q, %q) = %q, want %q", tt.dir, tt.pkg, got, tt.want)
		}
	}
}
