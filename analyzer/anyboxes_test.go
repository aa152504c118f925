package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestAnyBoxes checks systems whose interface values hold structs,
// arrays, functions and channels made at run time and kept in memory (type
// assertions, type switches and method calls on them) and a counter kept
// in an interface value, each beside a buggy twin, and the comparisons and
// slices that stay refused.
func TestAnyBoxes(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "anyboxes")
}
