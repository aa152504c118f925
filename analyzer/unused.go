package analyzer

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/extract"
)

// reportable returns the diagnostics of extract.Package that hold for pass
// under cfg: a //fencecheck:nofence on a statement without a plain store
// is unused only when barriers go right after plain stores, and a directive
// that matched nothing is left to the variant of the package with its test
// files when pass leaves them out.
func reportable(pass *analysis.Pass, cfg Config, diags []extract.Diagnostic) []extract.Diagnostic {
	leftOut := sync.OnceValue(func() bool { return testsLeftOut(pass) })
	var out []extract.Diagnostic
	for _, d := range diags {
		if d.AfterWritesOnly && cfg.Placement == PlacementAnywhere || d.Unused && leftOut() {
			continue
		}
		out = append(out, d)
	}
	return out
}

// testsLeftOut reports whether pass analyses a package without the test
// files of that package (not of an external _test package) that its
// directory holds: the variant without tests, which standalone drivers and
// golangci-lint analyse besides the one with them (go vet analyses only the
// latter). A system of those files may match a directive that matches
// nothing here, and the variant with them reports the directive if not.
func testsLeftOut(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			return false
		}
	}
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].FileStart).Name())
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.PackageClauseOnly)
		if err == nil && f.Name.Name == pass.Pkg.Name() {
			return true
		}
	}
	return false
}
