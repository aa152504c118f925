package analyzer_test

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestBlockBugs runs the default configuration on the corpus of blocking
// and non-blocking concurrency bugs in testdata/src/blockbugs: one package
// per bug, written in the style of a real Go project, each with the buggy
// system, whose finding is marked with // want, and its fixed twin, which
// must get none. The packages are loaded together, once, and analysed one
// at a time; the test logs, per package, the time of fencecheck's analysis
// of its two systems, and the time of the whole run, loading and
// type-checking included.
func TestBlockBugs(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join(analysistest.TestData(), "src", "blockbugs", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no blockbugs packages: %v", err)
	}
	sort.Strings(dirs)
	var pkgs []string
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			pkgs = append(pkgs, "blockbugs/"+filepath.Base(dir))
		}
	}
	a := analyzer.New(analyzer.DefaultConfig())
	var mu sync.Mutex
	analysed := make(map[string]time.Duration)
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		// One package at a time, so that each time is its own.
		mu.Lock()
		defer mu.Unlock()
		start := time.Now()
		defer func() { analysed[pass.Pkg.Path()] += time.Since(start) }()
		return run(pass)
	}
	start := time.Now()
	analysistest.Run(t, analysistest.TestData(), a, pkgs...)
	elapsed := time.Since(start)
	var total time.Duration
	for _, pkg := range pkgs {
		d, ok := analysed[pkg]
		if !ok {
			t.Errorf("package %s was not analysed", pkg)
		}
		total += d
		t.Logf("blockbugs %s: analysis %v", pkg, d.Round(time.Millisecond))
	}
	t.Logf("blockbugs total: %d packages, analysis %v, run %v (loading included)", len(pkgs), total.Round(time.Millisecond), elapsed.Round(time.Millisecond))
}
