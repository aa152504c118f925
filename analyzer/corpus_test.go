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
// and a broken mutant whose findings are marked with // want. The packages
// are loaded together, once, and analysed one at a time; the test logs,
// per package, the time of the analysis and the engine -engine=auto picks
// for each system, the rows of the corpus table in docs/evidence.md. The
// quick run takes every other package but the slowest (longCorpus); the
// long suites (FENCECHECK_LONG=1) take them all.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join(analysistest.TestData(), "src", "corpus", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus packages: %v", err)
	}
	sort.Strings(dirs)
	var pkgs []string
	for i, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if longtest.Quick() && (i%2 != 0 || longCorpus[filepath.Base(dir)]) {
			continue // the quick run takes every other idiom; the long suites all
		}
		pkgs = append(pkgs, "corpus/"+filepath.Base(dir))
	}
	// The wall clock is only a safety net behind the work bounds; the
	// long suite runs beside other tests on a loaded machine, where the
	// blocking search's share of the default budget (a quarter of two
	// minutes) can run out before its work does (batcher, under load).
	cfg := analyzer.DefaultConfig()
	cfg.Budget = 10 * time.Minute
	a := analyzer.New(cfg)
	var mu sync.Mutex
	analysed := make(map[string]time.Duration)
	engines := make(map[string][]string)
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		// One package at a time, so that each time is its own.
		mu.Lock()
		defer mu.Unlock()
		engines[pass.Pkg.Path()] = corpusEngines(pass)
		start := time.Now()
		defer func() { analysed[pass.Pkg.Path()] += time.Since(start) }()
		return run(pass)
	}
	analysistest.Run(t, analysistest.TestData(), a, pkgs...)
	var total time.Duration
	for _, pkg := range pkgs {
		total += analysed[pkg]
		t.Logf("corpus %s: %v, engines: %s", pkg, analysed[pkg].Round(time.Millisecond), strings.Join(engines[pkg], " "))
	}
	t.Logf("corpus total: %v", total.Round(time.Millisecond))
}

// longCorpus are the idioms whose analysis takes more than 10 s of CPU:
// procsem is checked once per value of runtime.GOMAXPROCS(0),
// weightedsem's waiters in a container/list go to the predicate engine,
// quantstream runs sort's code on a buffer of run-time length, and
// workerstack's workers loop over a pool's stack and its sync.Cond.
var longCorpus = map[string]bool{"procsem": true, "weightedsem": true, "quantstream": true, "workqueue": true, "batcher": true, "workerstack": true}

// corpusEngines names, for each system of the package, the engine that
// -engine=auto chooses (registry.Choose: pred for unbounded data, explicit
// for loop-free systems, sb otherwise, with bmc first for three goroutines
// or more, and the thread-modular engine before it for finite data), or
// "-" for a system that is not lowered.
func corpusEngines(pass *analysis.Pass) []string {
	var out []string
	systems, _ := extract.Package(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	for _, sys := range systems {
		name := "-"
		if sys.Program != nil {
			if plan, err := registry.Choose(registry.Auto, sys.Program, registry.Reach); err == nil {
				name = plan.String()
			} else {
				name = "error: " + err.Error()
			}
		}
		out = append(out, sys.Name+"="+name)
	}
	return out
}

// discard is an analysistest.Testing that ignores errors: the probe
// reports nothing, so every // want of the package is unmatched.
type discard struct{}

func (discard) Errorf(format string, args ...any) { _ = fmt.Sprintf(format, args...) }
