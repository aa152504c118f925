package analyzer

import (
	"fmt"
	"go/ast"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
	"github.com/fencecheck/fencecheck/model/native"
)

// choicePackages are testdata packages whose systems the choice test
// lowers: two goroutines and a waiting main, unbounded counters, three
// goroutines and more.
var choicePackages = []string{"dekker", "bakery", "ticket", "sb", "correct", "unbounded", "storebarriers", "pointers", "blocking", "channels"}

// TestFencemodelChoosesAlike checks that fencecheck and fencemodel choose
// the same engines for the same program: for the systems of some testdata
// packages, printed as the model files fencemodel reads, for the model
// files of the repository and for generated programs, the engine the
// analyzer's auto mode makes for the program is the one that `fencemodel
// check` names in its verdict line ([auto: ...]).
func TestFencemodelChoosesAlike(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds fencemodel")
	}
	dir := t.TempDir()
	want := map[string]string{} // model file → the analyzer's engine
	add := func(name string, p *model.Program, sys *extract.System) {
		t.Helper()
		if sys == nil {
			sys = &extract.System{Name: p.Name, Decl: &ast.FuncDecl{Name: ast.NewIdent(p.Name)}, Program: p}
		}
		s := &system{cfg: DefaultConfig(), sys: sys, p: p}
		eng, why := s.engine()
		if eng == nil {
			t.Fatalf("%s: no engine: %s", name, why)
		}
		file := filepath.Join(dir, fmt.Sprintf("%03d-%s.fcm", len(want), name))
		if err := os.WriteFile(file, native.Format(p), 0o644); err != nil {
			t.Fatal(err)
		}
		want[file] = eng.Name()
	}

	// Go systems.
	var systems []*extract.System
	probe := &analysis.Analyzer{
		Name: "choiceprobe",
		Doc:  "collects the systems of a package",
		Run: func(pass *analysis.Pass) (any, error) {
			found, _ := extract.Package(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
			systems = append(systems, found...)
			return nil, nil
		},
	}
	analysistest.Run(quiet{}, analysistest.TestData(), probe, choicePackages...)
	lowered := 0
	for _, sys := range systems {
		if sys.Program != nil {
			add(sys.Name, sys.Program, sys)
			lowered++
		}
	}
	if lowered < 20 {
		t.Fatalf("only %d systems lowered from %v", lowered, choicePackages)
	}

	// Model files.
	models, err := filepath.Glob(filepath.Join("..", "testdata", "*", "*.[fr]*m"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range models {
		p, err := modelfile.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		add(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), p, nil)
	}

	// Generated programs.
	rng := rand.New(rand.NewPCG(32, 1))
	for i := range longtest.Size(5, 20) {
		add(fmt.Sprintf("simple%d", i), progen.Simple(rng), nil)
		add(fmt.Sprintf("symmetric%d", i), progen.Symmetric(rng), nil)
		add(fmt.Sprintf("race%d", i), progen.Race(rng, progen.RaceOptions{}), nil)
	}

	// fencemodel, with a work bound that stops every check at once: only
	// the choice counts.
	bin := filepath.Join(dir, "fencemodel")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/fencemodel").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"check", "-q", "-maxwork=1"}
	for file := range want {
		args = append(args, file)
	}
	out, _ := exec.Command(bin, args...).CombinedOutput()
	verdict := regexp.MustCompile(`(?m)^(.+?\.fcm): .* \[auto: (\S+)\]$`)
	got := map[string]string{}
	for _, m := range verdict.FindAllStringSubmatch(string(out), -1) {
		got[m[1]] = m[2]
	}
	kinds := map[string]int{}
	for file, w := range want {
		kinds[w]++
		if got[file] != w {
			t.Errorf("%s: fencemodel chose %q, the analyzer %q", filepath.Base(file), got[file], w)
		}
	}
	t.Logf("%d programs; the analyzer's choices: %v", len(want), kinds)
	for _, plan := range []string{registry.Explicit, registry.SB, registry.Pred, "modular+sb+bmc", "pred+bmc"} {
		if kinds[plan] == 0 {
			t.Errorf("no program went to %s: the test does not cover it", plan)
		}
	}
	if t.Failed() {
		t.Logf("fencemodel's output:\n%s", out)
	}
}

// quiet is an analysistest.Testing that ignores errors: the probe reports
// nothing, so every // want of a package is unmatched.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}
