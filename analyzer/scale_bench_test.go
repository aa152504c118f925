package analyzer_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencecheck/fencecheck/analyzer"
)

// scaleCases are the Go systems of testdata/src/scale, at the scale of real
// code (3–6 goroutines, unbounded counters, wide ranges), each under the
// Go memory model (races) and under x86-TSO alone, with the kinds of
// finding worked out by hand in the package's doc comment. An empty kinds
// list means correct: no finding at all.
var scaleCases = []struct {
	pkg   string
	races bool
	kinds []string // the prefixes of the findings, sorted, without duplicates
}{
	{"filterlock", true, []string{"race", "x86-TSO"}},
	{"filterlock", false, []string{"x86-TSO"}},
	{"filterlockatomic", true, nil},
	{"bakery3", true, nil},
	{"bakery4", true, nil},
	{"bakery5", true, nil},
	{"peterson100", true, []string{"race", "x86-TSO"}},
	{"peterson100", false, []string{"x86-TSO"}},
	{"peterson100fixed", true, nil},
	{"barrier6", true, []string{"race"}},
	{"barrier6", false, nil},
	{"ring5", true, []string{"race"}},
	{"ring5", false, nil},
	{"caslock", true, []string{"race"}},
	{"caslock", false, nil},
	{"int8loop", true, nil},
	{"widerange", true, nil},
	{"writeloop", true, nil},
	{"writeloop", false, nil},
}

// BenchmarkScale runs the default configuration (-engine=auto, the default
// work bound) on each system of testdata/src/scale and fails when the
// findings are not the kinds worked out by hand, or when an answer is
// inconclusive: the targets are verdicts, not time-outs. It reports the
// peak heap beside the time. Run it with -benchtime=1x.
func BenchmarkScale(b *testing.B) {
	for _, c := range scaleCases {
		name := fmt.Sprintf("%s/races=%v", c.pkg, c.races)
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join(analysistest.TestData(), "src", "scale", c.pkg)
			pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: dir}, ".")
			if err != nil {
				b.Fatal(err)
			}
			if packages.PrintErrors(pkgs) > 0 {
				b.Fatalf("%s does not type-check", c.pkg)
			}
			cfg := analyzer.DefaultConfig()
			cfg.Races = c.races
			var peak uint64
			var kinds []string
			for b.Loop() {
				kinds = nil
				stop := watchPeak(&peak)
				graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.New(cfg)}, pkgs, nil)
				stop()
				if err != nil {
					b.Fatal(err)
				}
				for act := range graph.All() {
					for _, d := range act.Diagnostics {
						kind, _, _ := strings.Cut(d.Message, ":")
						if kind == "inconclusive" || kind == "internal error" {
							b.Errorf("%s", d.Message)
						}
						kinds = append(kinds, kind)
					}
				}
			}
			sort.Strings(kinds)
			kinds = compactStrings(kinds)
			if strings.Join(kinds, ",") != strings.Join(c.kinds, ",") {
				b.Errorf("%s: findings of kinds %q, want %q", name, kinds, c.kinds)
			}
			b.ReportMetric(float64(peak)/(1<<20), "MiB-heap")
		})
	}
}

func compactStrings(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// watchPeak samples the heap while an analysis runs and keeps its peak in
// *peak; the returned function stops the sampling.
func watchPeak(peak *uint64) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
