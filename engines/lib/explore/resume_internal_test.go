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

// TestAccelMemo checks that caching accelerate's chains by local state
// changes nothing: on generated programs, under SC and TSO, the search
// with the cache visits the states of the search without it, in the same
// order, with the same chains and answer.
func TestAccelMemo(t *testing.T) {
	n := longtest.Size(60, 300)
	hits := 0
	for _, gen := range []struct {
		name string
		gen  func(*rand.Rand) *model.Program
	}{
		{"simple", progen.Simple},
		{"symmetric", progen.Symmetric},
		{"race", func(rng *rand.Rand) *model.Program { return progen.Race(rng, progen.RaceOptions{}) }},
	} {
		for seed := range n {
			p := gen.gen(rand.New(rand.NewPCG(uint64(seed), 0xacce)))
			p.Index()
			for _, m := range []model.Model{model.SC, model.TSO} {
				run := func(memo bool) *search {
					s := newSearch(p, m, 2, &Options{Workers: 1}, 1<<20, engines.MeterOf(context.Background()))
					if !memo {
						s.cache = nil
					}
					if reason, err := s.run(context.Background()); reason != "" || err != nil {
						t.Fatalf("%s seed %d under %v: search stopped: %q, %v", gen.name, seed, m, reason, err)
					}
					return s
				}
				want, got := run(false), run(true)
				for _, w := range append(got.planners, got.seq) {
					hits += w.accHits
				}
				if len(got.nodes) != len(want.nodes) || got.badNode != want.badNode || got.blocked != want.blocked ||
					!slices.Equal(got.nodes, want.nodes) || !slices.Equal(got.chains, want.chains) {
					t.Fatalf("%s seed %d under %v: with the cache %d states, bad node %d; without %d, %d",
						gen.name, seed, m, len(got.nodes), got.badNode, len(want.nodes), want.badNode)
				}
				for id := range want.nodes {
					if string(got.visited.key(id)) != string(want.visited.key(id)) {
						t.Fatalf("%s seed %d under %v: state %d differs", gen.name, seed, m, id)
					}
				}
			}
		}
	}
	if hits == 0 {
		t.Error("the cache answered no chain: the test does not cover it")
	}
	t.Logf("%d chains answered by the cache", hits)
}
