package extract_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
)

// The integer types of the generated expressions, with the field names of
// their operands.
var genTypes = []struct{ name, field string }{
	{"int8", "i8"}, {"uint8", "u8"}, {"int16", "i16"}, {"uint32", "u32"}, {"int64", "i64"}, {"uint64", "u64"},
}

// exprGen generates random Go expressions over the fields of a struct s,
// which hold random values fixed by the system's setup.
type exprGen struct {
	r       *rand.Rand
	fields  strings.Builder     // the struct's fields
	setup   strings.Builder     // the assignments of their values
	nonZero map[string][]string // per type, the fields whose value is not zero
	all     map[string][]string
	// bitwise adds the bitwise operators on two fields and shifts by
	// counts held in fields.
	bitwise bool
}

func newExprGen(seed uint64) *exprGen {
	g := &exprGen{r: rand.New(rand.NewPCG(seed, 1)), nonZero: map[string][]string{}, all: map[string][]string{}}
	for _, t := range genTypes {
		bits := 64
		fmt.Sscanf(strings.TrimLeft(t.name, "uint"), "%d", &bits)
		signed := !strings.HasPrefix(t.name, "u")
		for i := range 4 {
			name := fmt.Sprintf("%s_%d", t.field, i)
			var v string
			switch u := g.r.Uint64() >> (64 - bits); {
			case i == 0:
				v = "0"
			case signed && i == 1:
				v = fmt.Sprint(-(int64(1) << (bits - 1))) // the smallest value
			case !signed && i == 1:
				v = fmt.Sprint(^uint64(0) >> (64 - bits)) // the largest value
			case signed:
				v = fmt.Sprint(int64(u<<(64-bits)) >> (64 - bits))
			default:
				v = fmt.Sprint(u)
			}
			fmt.Fprintf(&g.fields, "\t%s %s\n", name, t.name)
			fmt.Fprintf(&g.setup, "\ts.%s = %s\n", name, v)
			g.all[t.name] = append(g.all[t.name], "s."+name)
			if v != "0" {
				g.nonZero[t.name] = append(g.nonZero[t.name], "s."+name)
			}
		}
	}
	return g
}

func (g *exprGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// expr returns an expression of type t.
func (g *exprGen) expr(t string, depth int) string {
	if depth == 0 || g.r.IntN(5) == 0 {
		// A field, never a constant: Go folds constant expressions with
		// exact arithmetic, and rejects those that overflow.
		return g.pick(g.all[t])
	}
	x := g.expr(t, depth-1)
	if g.bitwise && g.r.IntN(2) == 0 {
		return g.bitExpr(t, x, depth)
	}
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", x, g.pick([]string{"+", "-", "*"}), g.expr(t, depth-1))
	case 1:
		d := g.pick(g.nonZero[t])
		if g.r.IntN(3) == 0 {
			d = fmt.Sprintf("%s(%d)", t, 1+g.r.IntN(9))
		}
		return fmt.Sprintf("(%s %s %s)", x, g.pick([]string{"/", "%"}), d)
	case 2:
		return fmt.Sprintf("(%s %s %d)", x, g.pick([]string{"<<", ">>"}), g.r.IntN(70))
	case 3:
		return fmt.Sprintf("(%s & %d)", x, 1<<(1+g.r.IntN(7))-1)
	case 4:
		return fmt.Sprintf("(%s%s)", g.pick([]string{"-", "^"}), x)
	case 5, 6:
		from := genTypes[g.r.IntN(len(genTypes))].name
		return fmt.Sprintf("%s(%s)", t, g.expr(from, depth-1))
	}
	return fmt.Sprintf("(%s + %s)", x, g.expr(t, depth-1))
}

// check returns a boolean or integer expression to check.
func (g *exprGen) check() string {
	t := genTypes[g.r.IntN(len(genTypes))].name
	if g.r.IntN(3) == 0 {
		return fmt.Sprintf("%s %s %s", g.expr(t, 2), g.pick([]string{"<", "<=", ">", ">=", "==", "!="}), g.expr(t, 2))
	}
	return g.expr(t, 3)
}

// TestGoIntegerSemantics generates random expressions over int8, uint8,
// int16, uint32, int64 and uint64 values, has Go evaluate them (go run),
// and checks that in the model of a system computing them at run time no
// result differs from Go's: each check panics on a difference, and the
// explicit engine must find no panic.
func TestGoIntegerSemantics(t *testing.T) {
	if longtest.Quick() {
		t.Skip("runs the go command")
	}
	checkGoSemantics(t, newExprGen(2026))
}

// checkGoSemantics has Go evaluate expressions of g and checks that the
// model computes the same values.
func checkGoSemantics(t *testing.T, g *exprGen) {
	const systems, checks = 4, 30
	dir := t.TempDir()
	exprs := make([][]string, systems)
	var main strings.Builder
	fmt.Fprintf(&main, "package main\n\nimport \"fmt\"\n\ntype vals struct {\n%s}\n\nfunc main() {\n\tvar s vals\n%s", g.fields.String(), g.setup.String())
	for i := range exprs {
		for range checks {
			e := g.check()
			exprs[i] = append(exprs[i], e)
			fmt.Fprintf(&main, "\tfmt.Println(%s)\n", e)
		}
	}
	main.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "main.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GO111MODULE=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s\n%s", err, out, main.String())
	}
	values := strings.Fields(string(out))
	if len(values) != systems*checks {
		t.Fatalf("go run printed %d values, want %d:\n%s", len(values), systems*checks, out)
	}

	var src strings.Builder
	fmt.Fprintf(&src, "package gen\n\ntype vals struct {\n%s}\n", g.fields.String())
	for i, es := range exprs {
		fmt.Fprintf(&src, "\n//fencecheck:system\nfunc check%d() {\n\tvar s vals\n%s\tgo func() {\n", i, g.setup.String())
		for j, e := range es {
			want := values[i*checks+j]
			if want == "true" || want == "false" {
				fmt.Fprintf(&src, "\t\tif (%s) != %s {\n\t\t\tpanic(\"e%d\")\n\t\t}\n", e, want, j)
			} else {
				fmt.Fprintf(&src, "\t\tif got := %s; got != %s {\n\t\t\tpanic(\"e%d\")\n\t\t}\n", e, want, j)
			}
		}
		src.WriteString("\t}()\n}\n")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", src.String(), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, Scopes: map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{},
	}
	pkg, err := (&types.Config{Importer: sharedImporter, GoVersion: "go1.26"}).Check("gen", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("type-checking the generated system: %v\n%s", err, src.String())
	}
	syss, diags := extract.Package(fset, pkg, []*ast.File{f}, info)
	for _, d := range diags {
		t.Errorf("%s: %s", fset.Position(d.Pos), d.Message)
	}
	for _, s := range syss {
		res, err := (&explicit.Engine{}).Check(context.Background(), s.Program, model.SC)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if res.Status == engines.Safe {
			continue
		}
		states, err := s.Program.Replay(res.Trace)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		last := states[len(states)-1]
		what := "a fault: "
		if last.Fault != nil {
			what += last.Fault.Msg
		} else if b := s.Program.MatchBad(last); b >= 0 {
			what = s.Program.Bad[b].Name
		}
		var i, j int
		fmt.Sscanf(s.Name, "check%d", &i)
		if _, err := fmt.Sscanf(strings.TrimPrefix(what, "panic(\""), "e%d", &j); err == nil {
			t.Errorf("%s: the model's %s differs from Go's %s", s.Name, exprs[i][j], values[i*checks+j])
			continue
		}
		t.Errorf("%s: %v: %s", s.Name, res.Status, what)
	}
}
