package analyzer_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// ssaName matches what go/ssa calls the values it computes (t12, $t12,
// t4_2, t4_tmp): names no Go programmer wrote, which a message must never
// show.
var ssaName = regexp.MustCompile(`(^|[^\w.@$])\$?t[0-9]+(_[0-9]+|_tmp)?\b`)

// TestMessagesNameSource runs the analyzer on every testdata package of
// packages analyzer and extract, in configurations that between them reach
// every kind of message (races on and off, every barrier set, the witness
// table, and a work bound small enough to make the larger systems
// inconclusive), and checks that no message names an SSA value instead of
// the Go variable or expression, or calls a limitation an internal error.
func TestMessagesNameSource(t *testing.T) {
	t.Parallel()
	if longtest.Quick() {
		t.Skip("analyses every testdata package three times")
	}
	// The larger systems get a smaller work bound than the default: the
	// messages are the point, not the verdicts.
	small := analyzer.DefaultConfig()
	small.Work = 5_000
	tso := tsoOnly()
	tso.Fences, tso.Witness, tso.Work = analyzer.FencesAll, true, 300_000
	races := analyzer.DefaultConfig()
	races.Witness, races.Work = true, 300_000
	configs := map[string]analyzer.Config{"races": races, "tso": tso, "small work": small}
	extract, err := filepath.Abs(filepath.Join("..", "extract", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{analysistest.TestData(), extract} {
		pkgs, err := testPackages(filepath.Join(root, "src"), "")
		if err != nil {
			t.Fatal(err)
		}
		for name, cfg := range configs {
			t.Run(filepath.Base(filepath.Dir(root))+"/"+name, func(t *testing.T) {
				// The packages' // want comments are for other
				// configurations: only the messages are checked here.
				var ignore recorder
				results := analysistest.Run(&ignore, root, analyzer.New(cfg), pkgs...)
				if len(results) < len(pkgs) {
					t.Fatalf("analysed %d of the %d packages:\n%s", len(results), len(pkgs), ignore.String())
				}
				for _, res := range results {
					for _, d := range res.Diagnostics {
						msg := d.Message
						for _, r := range d.Related {
							msg += "\n" + r.Message
						}
						if m := ssaName.FindString(msg); m != "" {
							t.Errorf("%s: message names the SSA value %q:\n%s", res.Pass.Fset.Position(d.Pos), strings.TrimSpace(m), msg)
						}
						if strings.Contains(msg, "internal error") {
							t.Errorf("%s: %s", res.Pass.Fset.Position(d.Pos), msg)
						}
					}
				}
			})
		}
	}
}

// testPackages lists the packages below dir, by their path from it: each
// directory with Go files, and the packages of a directory without (such
// as corpus, one package per idiom).
func testPackages(dir, prefix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, e := range entries {
		if !e.IsDir() || prefix == "" && e.Name() == "scale" {
			// testdata/src/scale holds the systems of BenchmarkScale,
			// too large to analyse three more times in every test run.
			continue
		}
		sub := filepath.Join(dir, e.Name())
		files, err := filepath.Glob(filepath.Join(sub, "*.go"))
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			pkgs = append(pkgs, prefix+e.Name())
			continue
		}
		more, err := testPackages(sub, prefix+e.Name()+"/")
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, more...)
	}
	return pkgs, nil
}
