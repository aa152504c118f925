package analyzer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestCrossPackage checks systems that call functions and methods of other
// packages of the build, whose source the extractor reads. The packages
// are a GOPATH tree, which analysistest loads in GOPATH mode; the extractor
// lists the build with the go command of the environment, which gets the
// same settings here (so the test cannot run in parallel).
func TestCrossPackage(t *testing.T) {
	gopath, err := filepath.Abs(analysistest.TestData())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPATH", gopath)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOWORK", "off")
	results := analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "crosspkg/use")
	// The steps in another package's code name its calls of sync/atomic
	// methods as written.
	want := map[string]bool{"v.l.Store(x)": false, "v.l.Load() reads 0": false}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				for w := range want {
					if strings.HasSuffix(rel.Message, w) {
						want[w] = true
					}
				}
			}
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("no step reads %q", w)
		}
	}
}
