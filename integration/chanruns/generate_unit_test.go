package chanruns

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestGenerate checks that the generator is deterministic, that its
// programs parse and type-check in form (one system function, channels of
// capacity 0 to 2, two or three go statements) for the first 600 programs
// of seed 1, and that the first 200 draw every construct the package
// documentation lists. FENCECHECK_CHANRUNS_SHOW=i prints program i.
func TestGenerate(t *testing.T) {
	if s := os.Getenv("FENCECHECK_CHANRUNS_SHOW"); s != "" {
		var i int
		for _, c := range s {
			i = 10*i + int(c-'0')
		}
		t.Logf("program %d:\n%s", i, generate(1, i).src)
	}
	constructs := map[string]string{
		"unbuffered channel": "make(chan int, 0)",
		"buffered channel":   ", 2)",
		"struct{} channel":   "make(chan struct{}",
		"send":               " <- ",
		"value check":        "if <-c",
		"v, ok receive":      ", ok := <-",
		"close":              "close(c",
		"select":             "select {\n",
		"select default":     "default:",
		"range over channel": " := range c",
		"bare range":         "for range c",
		"loop":               "for range 2 {",
		"len":                "len(c",
		"reachable len":      `"len 1 (check`,
		"select {}":          "select {}",
		"shared variable":    "var x int32",
		"WaitGroup":          "wg.Wait()",
		"early return":       "return",
		"random style":       "random style",
		"protocol style":     "protocol style",
	}
	counts := map[string]int{}
	for i := range 600 {
		p := generate(1, i)
		if q := generate(1, i); q.src != p.src {
			t.Fatalf("program %d differs between two draws", i)
		}
		if i > 0 && p.src == generate(1, i-1).src {
			t.Errorf("programs %d and %d are the same", i-1, i)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p.pkg+".go", p.src, parser.ParseComments)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.src)
		}
		systems, gos := 0, 0
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Name.Name == systemFunc && n.Doc != nil && strings.HasSuffix(n.Doc.List[len(n.Doc.List)-1].Text, "//fencecheck:system") {
					systems++
				}
			case *ast.GoStmt:
				gos++
			}
			return true
		})
		if systems != 1 || gos < 2 || gos > 3 {
			t.Errorf("program %d: %d system functions, %d go statements\n%s", i, systems, gos, p.src)
		}
		for name, s := range constructs {
			if i < 200 && strings.Contains(p.src, s) {
				counts[name]++
			}
		}
	}
	for name := range constructs {
		if counts[name] == 0 {
			t.Errorf("no program among the first 200 has a %s", name)
		}
	}
	t.Logf("programs with each construct, of 200: %v", counts)
}
