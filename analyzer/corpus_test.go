package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// TestCorpus runs the default configuration on the corpus of idioms in
// testdata/src/corpus: one package per idiom, each with a correct system
// and a broken mutant whose findings are marked with // want. It logs, per
// package, the time of the analysis and the engine -engine=auto picks for
// each system, the rows of the corpus table in docs/evidence.md. The quick
// run takes every other package; the long suites (FENCECHECK_LONG=1) take
// them all.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join(analysistest.TestData(), "src", "corpus", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus packages: %v", err)
	}
	sort.Strings(dirs)
	var (
		mu    sync.Mutex
		total time.Duration
	)
	t.Cleanup(func() { t.Logf("corpus total: %v", total.Round(time.Millisecond)) })
	for i, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if longtest.Quick() && i%2 != 0 {
			continue // the quick run takes every other idiom; the long suites all
		}
		pkg := "corpus/" + filepath.Base(dir)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), pkg)
			elapsed := time.Since(start)
			mu.Lock()
			total += elapsed
			mu.Unlock()
			t.Logf("corpus %s: %v, engines: %s", pkg, elapsed.Round(time.Millisecond), corpusEngines(pkg))
		})
	}
}

// corpusEngines names, for each system of the package, the engine that
// -engine=auto chooses (registry.Choose: pred for unbounded data, explicit
// for loop-free systems, sb otherwise, with bmc first for three goroutines
// or more, and the thread-modular engine before it for finite data), or
// "-" for a system that is not lowered.
func corpusEngines(pkg string) string {
	var out []string
	probe := &analysis.Analyzer{
		Name: "corpusengines",
		Doc:  "names the engine of each system",
		Run: func(pass *analysis.Pass) (any, error) {
			systems, _ := extract.Package(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
			for _, sys := range systems {
				if sys.Program == nil {
					out = append(out, sys.Name+"=-")
					continue
				}
				plan, err := registry.Choose(registry.Auto, sys.Program, registry.Reach)
				if err != nil {
					return nil, err
				}
				name := plan.String()
				out = append(out, sys.Name+"="+name)
			}
			return nil, nil
		},
	}
	analysistest.Run(discard{}, analysistest.TestData(), probe, pkg)
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, " ")
}

// discard is an analysistest.Testing that ignores errors: the probe
// reports nothing, so every // want of the package is unmatched.
type discard struct{}

func (discard) Errorf(format string, args ...any) { _ = fmt.Sprintf(format, args...) }
