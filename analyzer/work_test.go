package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestWorkBound checks the answers a small work bound cuts short: they name
// the bound, its flag and the variables behind the engine's choice.
func TestWorkBound(t *testing.T) {
	cfg := analyzer.DefaultConfig()
	cfg.Work = 300
	analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), "workbound")
}
