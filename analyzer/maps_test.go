package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestMaps checks systems over maps under the default configuration: a
// map guarded by a mutex or an RWMutex, a map the set-up fills and the
// goroutines read, and a range whose every order gives one answer are
// correct; unguarded writes and a lookup beside a write race, a write to
// a nil map panics, and an outcome that depends on the order of a range
// is found.
func TestMaps(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "mapsys")
}
