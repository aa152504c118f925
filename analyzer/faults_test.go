package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

const gapSrc = `package p

type cell struct{ x int32 }

//fencecheck:system
func truncates() {
	var c cell
	c.x = 300
	go func() {
		x := c.x
		if uint8(x) != 44 {
			panic("uint8(300) is 44")
		}
	}()
}
`

// gapSystem lowers gapSrc and returns the pass, the system, and the process
// and register of x, whose domain is narrowed to [0:0]: a gap in the
// inference, as if it had missed the value 300.
func gapSystem(t *testing.T, diags *[]analysis.Diagnostic) (*analysis.Pass, *extract.System, int, int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", gapSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, Scopes: map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{},
	}
	pkg, err := (&types.Config{Importer: importer.Default(), GoVersion: "go1.26"}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	systems, ds := extract.Package(fset, pkg, []*ast.File{f}, info)
	if len(ds) > 0 || len(systems) != 1 {
		t.Fatalf("extract: %d systems, diagnostics %v", len(systems), ds)
	}
	sys := systems[0]
	for qi, regs := range sys.Regs {
		for ri, e := range regs {
			if e.Name == "x" {
				sys.Program.Procs[qi].Regs[ri].Dom = model.Range(0, 0)
				pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Report: func(d analysis.Diagnostic) { *diags = append(*diags, d) }}
				return pass, sys, qi, ri
			}
		}
	}
	t.Fatalf("no register x in\n%+v", sys.Regs)
	return nil, nil, 0, 0
}

// TestInferenceGapWidened checks that a value outside an inferred domain is
// not a verdict: the analysis widens the domain to the Go type's (which
// hands the system to the predicate engine) and proves the system.
func TestInferenceGapWidened(t *testing.T) {
	for _, races := range []bool{false, true} {
		var got []analysis.Diagnostic
		pass, sys, q, r := gapSystem(t, &got)
		rep := newReporter(pass)
		cfg := DefaultConfig()
		cfg.Races = races
		checkSystem(rep, cfg, sys)
		rep.flush()
		for _, d := range got {
			t.Errorf("races %v: unexpected diagnostic: %s", races, d.Message)
		}
		if d := sys.Program.Procs[q].Regs[r].Dom; !d.Unbounded {
			t.Errorf("races %v: the domain of x is %v after the analysis, want it widened to int", races, d)
		}
	}
}

// TestInferenceGapInconclusive checks that an inference gap that cannot be
// widened is inconclusive, naming the variable as the source does, and
// never an SC or x86-TSO verdict.
func TestInferenceGapInconclusive(t *testing.T) {
	var got []analysis.Diagnostic
	pass, sys, q, r := gapSystem(t, &got)
	sys.Regs[q][r].Limit = model.Range(0, 0) // nothing wider to go to
	rep := newReporter(pass)
	cfg := DefaultConfig()
	cfg.Races = false
	checkSystem(rep, cfg, sys)
	rep.flush()
	if len(got) != 1 {
		t.Fatalf("diagnostics %v, want one", got)
	}
	msg := got[0].Message
	if !strings.HasPrefix(msg, "inconclusive: system truncates: x (p.go:10:3) takes the value 300, outside the domain [0:0] that fencecheck inferred for it") {
		t.Errorf("got %q, want an inconclusive answer naming x at p.go:10:3", msg)
	}
}
