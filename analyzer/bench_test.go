package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencecheck/fencecheck/analyzer"
)

// BenchmarkExamples runs the analyzer on the bundled examples with the data
// race check and without it (the x86-TSO analysis of every system, as before
// races were checked): the cost of judging systems under the Go memory
// model. Run it with -benchtime=1x; one iteration analyses the whole module.
func BenchmarkExamples(b *testing.B) {
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: filepath.Join("..", "examples")}
	pkgs, err := packages.Load(cfg, "./locks")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("the examples do not type-check")
	}
	for _, races := range []bool{false, true} {
		name := "races=false"
		if races {
			name = "races=true"
		}
		b.Run(name, func(b *testing.B) {
			c := analyzer.DefaultConfig()
			c.Races = races
			for b.Loop() {
				a := analyzer.New(c)
				if _, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
