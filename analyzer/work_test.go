package analyzer_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// TestWorkBound checks the answers a small work bound cuts short: they name
// the bound, its flag and the variables behind the engine's choice.
func TestWorkBound(t *testing.T) {
	cfg := analyzer.DefaultConfig()
	cfg.Work = 300
	analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), "workbound")
}

// TestWorkBoundReproducible analyses systems whose answers the work bound
// cuts short in the middle of the race check and of the fence inference,
// with the predicate engine (whose two forms of wrapping counters run at
// once) and the exact ones, three times: as is, on one processor, and with
// every processor kept busy. The answers must be the same each time.
func TestWorkBoundReproducible(t *testing.T) {
	if longtest.Quick() {
		t.Skip("analyses the packages three times")
	}
	run := func() []string {
		var out []string
		for _, c := range []struct {
			pkg  string
			work int64
		}{{"ticket", 20_000}, {"bakery", 40_000}, {"workbound", 2_000}} {
			cfg := analyzer.DefaultConfig()
			cfg.Work = c.work
			var ignore recorder
			for _, res := range analysistest.Run(&ignore, analysistest.TestData(), analyzer.New(cfg), c.pkg) {
				for _, d := range res.Diagnostics {
					out = append(out, fmt.Sprintf("%v: %s", res.Pass.Fset.Position(d.Pos), d.Message))
				}
			}
		}
		return out
	}
	want := run()
	t.Logf("answers:\n%s", strings.Join(want, "\n"))
	cut := 0
	for _, d := range want {
		if strings.Contains(d, "reached the work bound") {
			cut++
		}
	}
	if cut < 4 {
		t.Fatalf("only %d answers were cut by the work bound:\n%s", cut, strings.Join(want, "\n"))
	}
	slow := map[string]func() func(){
		"GOMAXPROCS=1": func() func() {
			old := runtime.GOMAXPROCS(1)
			return func() { runtime.GOMAXPROCS(old) }
		},
		"busy": func() func() {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range 2 * runtime.NumCPU() {
				wg.Go(func() {
					for x := 0; ; x++ {
						select {
						case <-stop:
							return
						default:
						}
						_ = fmt.Sprint(x)
					}
				})
			}
			return func() { close(stop); wg.Wait() }
		},
	}
	for _, name := range []string{"GOMAXPROCS=1", "busy"} {
		undo := slow[name]()
		got := run()
		undo()
		if !slices.Equal(got, want) {
			t.Errorf("%s: the answers differ from the first run's:\ngot:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
