package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestCrossPackage checks systems that call functions and methods of other
// packages of the build, whose source the extractor reads.
func TestCrossPackage(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "crosspkg/use")
}
