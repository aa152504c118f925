package analyzer_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// TestFloats checks the floats package (see constructPackages) with each
// engine that computes floats exactly; TestConstructs checks it with the
// default plan.
func TestFloats(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"explicit", "sb"} {
		t.Run(engine, func(t *testing.T) {
			cfg := analyzer.DefaultConfig()
			cfg.Engine = engine
			analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), "floats")
		})
	}
}

// TestFloatsSymbolicEngines runs the floats package with the engines that
// do not encode floating-point arithmetic: each system is either found
// wrong where the package wants it (through the exact engine that answers
// the race question) or inconclusive with the reason, which names the Go
// position of the float operation; never another answer.
func TestFloatsSymbolicEngines(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(analysistest.TestData(), "src", "floats", "floats.go"))
	if err != nil {
		t.Fatal(err)
	}
	wanted := map[int]bool{}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "// want ") {
			wanted[i+1] = true
		}
	}
	floatAt := regexp.MustCompile(`^inconclusive: system \w+.*the floating-point arithmetic at floats\.go:\d+:\d+ is not encoded by the (bmc|predicate) engine`)
	for _, engine := range []string{"pred", "bmc"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			cfg := analyzer.DefaultConfig()
			cfg.Engine = engine
			var ignore recorder
			inconclusive := 0
			for _, res := range analysistest.Run(&ignore, analysistest.TestData(), analyzer.New(cfg), "floats") {
				for _, d := range res.Diagnostics {
					pos := res.Pass.Fset.Position(d.Pos)
					switch {
					case floatAt.MatchString(d.Message):
						inconclusive++
					case wanted[pos.Line] && (strings.HasPrefix(d.Message, "SC:") || strings.HasPrefix(d.Message, "race:")):
					default:
						t.Errorf("%s: %s", pos, d.Message)
					}
				}
			}
			if engine == "bmc" && inconclusive == 0 {
				t.Errorf("no system was inconclusive for its floats")
			}
		})
	}
}
