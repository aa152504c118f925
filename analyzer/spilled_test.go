package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestSpilled checks methods whose closures capture the receiver (a
// sync.Once's Do in a method, from the method's goroutine too).
func TestSpilled(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "spilled")
}
