package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestRuntime checks systems that call into the run time (method values,
// sync.NewCond on a mutex of its own, nil dereferences, GOMAXPROCS and
// friends, Gosched, Goexit, panic and recover, time.Now, sync.Pool), each
// beside a buggy twin, a package whose initialisation panics and one that
// calls C, under the default configuration.
func TestRuntime(t *testing.T) {
	t.Parallel()
	for _, pkg := range []string{"runtimecalls", "initpanic", "cgocall"} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), pkg)
		})
	}
}
