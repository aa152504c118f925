package explore

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

// TestResume checks that a Search stopped by its state budget and resumed
// with larger ones visits the states of one search with the last budget,
// in the same order, and answers as Check does: on generated programs,
// under SC and TSO, with and without the reductions, with batches small
// enough that a budget stops a run in the middle of one.
func TestResume(t *testing.T) {
	n := longtest.Size(30, 150)
	stopped := 0
	for _, gen := range []struct {
		name string
		gen  func(*rand.Rand) *model.Program
	}{
		{"simple", progen.Simple},
		{"symmetric", progen.Symmetric},
		{"race", func(rng *rand.Rand) *model.Program { return progen.Race(rng, progen.RaceOptions{}) }},
	} {
		for seed := range n {
			p := gen.gen(rand.New(rand.NewPCG(uint64(seed), 0x4e5a)))
			for _, m := range []model.Model{model.SC, model.TSO} {
				for _, o := range []Options{{Bound: 2}, {Bound: 2, NoPOR: true, NoSymmetry: true}} {
					ctx := context.Background()
					want, err := Check(ctx, p, m, o)
					if err != nil {
						t.Fatal(err)
					}
					x, err := NewSearch(p, m, o)
					if err != nil {
						t.Fatal(err)
					}
					var got *resumed
					for budget := int64(1); ; budget = budget*3 + 1 {
						if x.s != nil {
							x.s.batch, x.s.minParallel = 5, 2
						}
						res, err := x.Run(ctx, budget)
						if err != nil {
							t.Fatal(err)
						}
						got = got.add(res)
						if res.Status != engines.Inconclusive {
							break
						}
						stopped++
					}
					if got.status != want.Status || got.states != want.Stats.States || got.bound != want.Bound ||
						(want.Trace != nil) != (got.trace != nil) || want.Trace != nil && !slices.Equal(want.Trace.Steps, got.trace.Steps) {
						t.Fatalf("%s seed %d under %v (%+v): resumed: %v %q, %d states; one search: %v %q, %d states",
							gen.name, seed, m, o, got.status, got.bound, got.states, want.Status, want.Bound, want.Stats.States)
					}
				}
			}
		}
	}
	if stopped == 0 {
		t.Error("no search was stopped and resumed")
	}
}

// resumed sums the runs of a resumed search.
type resumed struct {
	status engines.Status
	bound  string
	states int64
	trace  *model.Trace
}

func (r *resumed) add(res *engines.Result) *resumed {
	if r == nil {
		r = &resumed{}
	}
	r.status, r.bound, r.trace = res.Status, res.Bound, res.Trace
	r.states += res.Stats.States
	return r
}
