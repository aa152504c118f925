package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestMapsFloatKeys checks systems over maps keyed by floats with Go's
// semantics (-0 is +0, a NaN is never found): a histogram keyed by its
// bounds under a lock and its racy twin, a signed zero and a NaN looked up
// and deleted, a struct key with a float field; inserting a NaN is
// refused, in the set-up at its position, in a goroutine where a run
// reaches it.
func TestMapsFloatKeys(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "floatkeys")
}
