package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestAnyBoxesFloats checks systems whose interface values hold floats
// computed at run time and kept in memory (a published ratio, a float
// counter kept in an any), each beside a buggy twin, and comparisons of
// such values by Go's float equality (NaN, ±0).
func TestAnyBoxesFloats(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "anyfloats")
}
