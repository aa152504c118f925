package extract

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestWrapArg checks which operand of fmt.Errorf a %w verb takes.
func TestWrapArg(t *testing.T) {
	tests := []struct {
		format string
		idx    int
		ok     bool
	}{
		{"%w", 0, true},
		{"fetch %d: %w", 1, true},
		{"%s %5.2f %w", 2, true},
		{"100%% %w", 0, true},
		{"%-8s|%+d|%#x: %w", 3, true},
		{"%w then %v", 0, true},
		{"no verbs", 0, false},
		{"%d %v", 0, false},
		{"%w %w", 0, false},      // two wrapped errors: wrapErrors
		{"%[1]w", 0, false},      // an explicit argument index
		{"%*d %w", 0, false},     // a * width takes an argument
		{"trailing %", 0, false}, // no verb
	}
	for _, tt := range tests {
		idx, ok := wrapArg(tt.format)
		if ok != tt.ok || ok && idx != tt.idx {
			t.Errorf("wrapArg(%q) = %d, %v; want %d, %v", tt.format, idx, ok, tt.idx, tt.ok)
		}
	}
}

// TestTestedNonNil checks which operands of errors.Join a branch tested
// against nil where the join runs.
func TestTestedNonNil(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"under != nil", "if err != nil { all = errors.Join(all, err) }", true},
		{"nil on the left", "if nil != err { all = errors.Join(all, err) }", true},
		{"else of == nil", "if err == nil { return nil } else { all = errors.Join(all, err) }", true},
		{"after an early return", "if err == nil { return nil }; all = errors.Join(all, err)", true},
		{"under == nil", "if err == nil { all = errors.Join(all, err) }", false},
		{"untested", "all = errors.Join(all, err)", false},
		{"after the branch joins", "if err != nil { println() }; all = errors.Join(all, err)", false},
		{"another value tested", "if all != nil { all = errors.Join(all, err) }", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\nimport \"errors\"\n\nfunc f(all, err error) error {\n\t" + tt.body + "\n\treturn all\n}\n"
			fn := buildFunc(t, src, "f")
			var join *ssa.Call
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					if c, ok := in.(*ssa.Call); ok {
						if callee := c.Call.StaticCallee(); callee != nil && callee.Name() == "Join" {
							join = c
						}
					}
				}
			}
			if join == nil {
				t.Fatal("no call of errors.Join")
			}
			vals, ok := appendArgs(join.Call.Args[0])
			if !ok || len(vals) != 2 {
				t.Fatalf("the operands of the join: %v, %v", vals, ok)
			}
			if got := testedNonNil(fn.Params[1], join.Call.Args[0]); got != tt.want {
				t.Errorf("testedNonNil(err) = %v, want %v", got, tt.want)
			}
		})
	}
}

// buildFunc type-checks src, a package importing only the standard
// library, builds its SSA, and returns its function name.
func buildFunc(t *testing.T, src, name string) *ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return pkg.Func(name)
}

// TestUsedOnlyIfOK checks which comma-ok receives have every use of
// their value under a branch taken on their ok.
func TestUsedOnlyIfOK(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"range over the channel", "for e := range ch { all = errors.Join(all, e) }", true},
		{"comma-ok tested", "if e, ok := <-ch; ok { all = errors.Join(all, e) }", true},
		{"comma-ok not tested", "e, ok := <-ch; _ = ok; all = errors.Join(all, e)", false},
		{"comma-ok tested false", "if e, ok := <-ch; !ok { all = errors.Join(all, e) }", false},
		{"used before the test", "e, ok := <-ch; all = errors.Join(all, e); if !ok { return nil }", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\nimport \"errors\"\n\nfunc f(ch chan error) (all error) {\n\t" + tt.body + "\n\treturn all\n}\n"
			fn := buildFunc(t, src, "f")
			var recv *ssa.UnOp
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					if u, ok := in.(*ssa.UnOp); ok && u.Op == token.ARROW {
						recv = u
					}
				}
			}
			if recv == nil || !recv.CommaOk {
				t.Fatalf("no comma-ok receive: %v", recv)
			}
			if got := usedOnlyIfOK(recv); got != tt.want {
				t.Errorf("usedOnlyIfOK = %v, want %v", got, tt.want)
			}
		})
	}
}
