package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestValues checks systems over values and memory (interface values of
// run-time integers, pointers into objects in memory and through
// unsafe.Pointer, error results by path, a make of run-time length on a
// path not taken, go statements in loops of goroutines, stores between go
// statements), each beside a buggy twin, under the default configuration.
func TestValues(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "values")
}
