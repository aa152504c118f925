package analyzer_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestCategories runs the analyzer on testdata packages that between them
// reach every finding kind but internal, and checks that every diagnostic's
// Category is a finding kind, the one its message starts with when it
// starts with one.
func TestCategories(t *testing.T) {
	t.Parallel()
	extract, err := filepath.Abs(filepath.Join("..", "extract", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	tso := tsoOnly()
	tso.Work = 300_000
	small := analyzer.DefaultConfig()
	small.Work = 5_000
	runs := []struct {
		root string
		cfg  analyzer.Config
		pkgs []string
	}{
		{analysistest.TestData(), analyzer.DefaultConfig(), []string{"races", "blocking", "directives", "unsupported", "sc", "hygiene", "localrange"}},
		{analysistest.TestData(), tso, []string{"dekker", "corpus/seqlock"}},
		{analysistest.TestData(), small, []string{"workbound"}},
		{extract, analyzer.DefaultConfig(), []string{"unsupported"}},
	}
	seen := map[string]bool{}
	for _, run := range runs {
		// The packages' // want comments are for other configurations:
		// only the categories are checked here.
		var ignore recorder
		for _, res := range analysistest.Run(&ignore, run.root, analyzer.New(run.cfg), run.pkgs...) {
			for _, d := range res.Diagnostics {
				pos := res.Pass.Fset.Position(d.Pos)
				if !slices.Contains(analyzer.Kinds, d.Category) {
					t.Errorf("%s: category %q is not a finding kind: %s", pos, d.Category, d.Message)
					continue
				}
				seen[d.Category] = true
				if kind, _, ok := strings.Cut(d.Message, ":"); ok && slices.Contains(analyzer.Kinds, kind) && kind != d.Category {
					t.Errorf("%s: category %q for a message of kind %q: %s", pos, d.Category, kind, d.Message)
				}
			}
		}
	}
	for _, k := range analyzer.Kinds {
		if !seen[k] && k != analyzer.KindInternal {
			t.Errorf("no diagnostic of kind %s", k)
		}
	}
}
