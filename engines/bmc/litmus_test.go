package bmc_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/model"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

// TestLitmus checks the engine's verdicts against herd7's on the whole
// litmus corpus, under SC and under x86-TSO, with refinement; full
// instantiation on every fourth test (every test with -long). The tests
// are loop-free: no answer may carry a bound.
func TestLitmus(t *testing.T) {
	requireZ3(t)
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []*bmc.Engine{{}, {Full: true}} {
		name := "ref"
		if eng.Full {
			name = "full"
		}
		t.Run(name, func(t *testing.T) {
			agree := map[model.Model]int{}
			step := 1
			if eng.Full && !*long {
				step = 4
			}
			n := 0
			for i := 0; i < len(tests); i += step {
				lt := tests[i]
				n++
				p, err := lt.Program()
				if err != nil {
					t.Errorf("%s: %v", lt.Name, err)
					continue
				}
				for _, c := range []struct {
					m    model.Model
					want string
				}{{model.SC, lt.SC}, {model.TSO, lt.TSO}} {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					res, err := eng.Check(ctx, p, c.m)
					timedOut := ctx.Err() != nil
					cancel()
					if err != nil {
						t.Errorf("%s under %v: %v", lt.Name, c.m, err)
						continue
					}
					if res.Status == engines.Inconclusive && timedOut {
						// Z3's time grows with the machine's load: the 30 s
						// are a safety net, not the test.
						t.Logf("%s under %v: %v", lt.Name, c.m, res)
						continue
					}
					if res.Status == engines.Inconclusive {
						t.Errorf("%s under %v: %v", lt.Name, c.m, res)
						continue
					}
					if res.Bound != "" {
						t.Errorf("%s under %v: a loop-free program got a bounded answer %q", lt.Name, c.m, res.Bound)
					}
					got := "forbidden"
					if res.Status == engines.Unsafe {
						got = "allowed"
						if res.Trace == nil || res.Trace.Model != c.m {
							t.Errorf("%s under %v: unsafe without a trace of the model", lt.Name, c.m)
						}
					}
					if got != c.want {
						t.Errorf("%s under %v: got %s, want %s (%s)", lt.Name, c.m, got, c.want, lt.Condition)
						continue
					}
					agree[c.m]++
				}
			}
			t.Logf("litmus (%s): %d/%d agree with herd7 under SC, %d/%d under TSO", name, agree[model.SC], n, agree[model.TSO], n)
		})
	}
}
