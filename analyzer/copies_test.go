package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestCopies checks the built-in copy in goroutines: its count, memmove's
// order on overlapping slices, and its accesses racing.
func TestCopies(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "copies")
}
