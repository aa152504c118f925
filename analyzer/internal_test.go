package analyzer

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/extract"
)

// TestPanicRecovered checks that a panic while analysing a system becomes a
// diagnostic naming the system.
func TestPanicRecovered(t *testing.T) {
	var got []analysis.Diagnostic
	pass := &analysis.Pass{
		Fset:   token.NewFileSet(),
		Report: func(d analysis.Diagnostic) { got = append(got, d) },
	}
	r := newReporter(pass)
	// A system without a model makes the analysis dereference nil.
	sys := &extract.System{Name: "broken", Decl: &ast.FuncDecl{Name: ast.NewIdent("broken")}}
	checkSystem(r, DefaultConfig(), sys)
	r.flush()
	if len(got) != 1 || !strings.Contains(got[0].Message, "internal error: fencecheck panicked while analysing system broken") {
		t.Errorf("diagnostics %+v, want one internal error naming system broken", got)
	}
}

func TestExtractDoc(t *testing.T) {
	for _, c := range []struct {
		name, src, want, wantErr string
	}{
		{"ok", "// Package p.\n//\n// # Analyzer a\n//\n// a: does things\n//\n// More.\n//\n// # Other\n//\n// x\npackage p\n", "does things\n\nMore.", ""},
		{"missing", "// Package p.\npackage p\n", "", "no \"# Analyzer a\" section"},
		{"no prefix", "// # Analyzer a\n//\n// does things\npackage p\n", "", "does not start with"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := extractDoc(c.src, "a")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("extractDoc: %q, %v; want an error containing %q", got, err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("extractDoc: %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
