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

// TestParallelPlanning checks that planning the expansions of a batch at
// once gives the sequential search: on generated programs, under SC and
// TSO, with and without the reductions, a search with three planners and
// small batches (so that planning runs in parallel and plans must be
// redone because of the states before them in their batch) visits the
// same states in the same order and finds the same trace as the sequential
// search (one planner and batches of one state, whose plans never depend
// on a state not yet expanded).
func TestParallelPlanning(t *testing.T) {
	n := 120
	if longtest.Quick() {
		n = 40
	}
	redos, parallel := 0, 0
	for _, gen := range []struct {
		name string
		gen  func(*rand.Rand) *model.Program
	}{
		{"simple", progen.Simple},
		{"symmetric", progen.Symmetric},
		{"race", func(rng *rand.Rand) *model.Program { return progen.Race(rng, progen.RaceOptions{}) }},
	} {
		for seed := range n {
			p := gen.gen(rand.New(rand.NewPCG(uint64(seed), 0xba7c)))
			p.Index()
			for _, m := range []model.Model{model.SC, model.TSO} {
				for _, e := range []Options{{}, {NoPOR: true, NoSymmetry: true}} {
					run := func(workers, batch int) *search {
						e.Workers = workers
						s := newSearch(p, m, 2, &e, 1<<20, engines.MeterOf(context.Background()))
						s.batch, s.minParallel = batch, 2
						if reason, err := s.run(context.Background()); reason != "" || err != nil {
							t.Fatalf("%s seed %d under %v: search stopped: %q, %v", gen.name, seed, m, reason, err)
						}
						return s
					}
					want, got := run(1, 1), run(3, 8)
					redos += got.redos
					if want.redos != 0 {
						t.Fatalf("%s seed %d: the sequential search redid %d plans", gen.name, seed, want.redos)
					}
					if len(want.nodes) > 16 {
						parallel++
					}
					if len(got.nodes) != len(want.nodes) || got.badNode != want.badNode || got.blocked != want.blocked {
						t.Fatalf("%s seed %d under %v (%+v): %d states, bad node %d, blocked %v with three planners; %d, %d, %v with one",
							gen.name, seed, m, e, len(got.nodes), got.badNode, got.blocked, len(want.nodes), want.badNode, want.blocked)
					}
					if !slices.Equal(got.nodes, want.nodes) || !slices.Equal(got.chains, want.chains) {
						t.Fatalf("%s seed %d under %v (%+v): the states' parents or steps differ", gen.name, seed, m, e)
					}
					for id := range want.nodes {
						if string(got.visited.key(id)) != string(want.visited.key(id)) {
							t.Fatalf("%s seed %d under %v (%+v): state %d differs", gen.name, seed, m, e, id)
						}
					}
				}
			}
		}
	}
	if parallel == 0 || redos == 0 {
		t.Errorf("%d searches planned in parallel, %d plans redone: the test does not cover parallel planning", parallel, redos)
	}
	t.Logf("%d searches with batches planned in parallel, %d plans redone", parallel, redos)
}

// TestPlannerPanic checks that a panic in a planner's goroutine reaches
// the goroutine that runs the search, where the analyzer recovers it as
// an internal error, instead of ending the process.
func TestPlannerPanic(t *testing.T) {
	p := progen.Simple(rand.New(rand.NewPCG(7, 0xba7c)))
	p.Index()
	s := newSearch(p, model.SC, 0, &Options{Workers: 2}, 1<<20, engines.MeterOf(context.Background()))
	s.batch, s.minParallel = 8, 1
	s.planners[0] = nil // the first planner's goroutine panics
	defer func() {
		if recover() == nil {
			t.Error("the search did not panic")
		}
	}()
	s.run(context.Background())
}

// TestSetFull checks that a search whose visited set cannot take another
// state ends inconclusive, whichever state it is, and never as if it had
// explored everything.
func TestSetFull(t *testing.T) {
	for seed := range 40 {
		p := progen.Simple(rand.New(rand.NewPCG(uint64(seed), 0xf011)))
		p.Index()
		full := newSearch(p, model.SC, 0, &Options{}, 1<<20, engines.MeterOf(context.Background()))
		if reason, err := full.run(context.Background()); reason != "" || err != nil || full.badNode >= 0 {
			continue // only safe programs: a bad state would end the search first
		}
		for limit := 1; limit <= len(full.nodes); limit++ {
			s := newSearch(p, model.SC, 0, &Options{}, 1<<20, engines.MeterOf(context.Background()))
			s.visited.maxLen = limit
			reason, err := s.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if limit < len(full.nodes) && reason == "" {
				t.Fatalf("seed %d: with room for %d of the %d states, the search ended without a reason", seed, limit, len(full.nodes))
			}
			if limit == len(full.nodes) && reason != "" {
				t.Fatalf("seed %d: with room for all %d states: %s", seed, limit, reason)
			}
		}
	}
}
