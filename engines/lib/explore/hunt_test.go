package explore_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

// TestHuntAgrees checks the depth-first hunt against the breadth-first
// search with its reductions on generated programs, under SC and under TSO
// with a buffer bound: run to the end, the hunt finds a bad state exactly
// when the search does (each with a trace that replays, which Run
// verifies), and a hunt stopped by a budget of a few states resumes to the
// same answer.
func TestHuntAgrees(t *testing.T) {
	n := longtest.Size(300, 3000)
	rng := rand.New(rand.NewPCG(3, 41))
	found := 0
	for i := range n {
		var p *model.Program
		switch i % 3 {
		case 0:
			p = progen.Simple(rng)
		case 1:
			p = progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		default:
			p = progen.Symmetric(rng)
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			o := explore.Options{Bound: 2}
			want, err := explore.Check(context.Background(), p, m, o)
			if err != nil {
				t.Fatalf("program %d under %v: %v", i, m, err)
			}
			if want.Status == engines.Inconclusive {
				continue
			}
			h, err := explore.NewHunt(p, m, o)
			if err != nil {
				t.Fatal(err)
			}
			var got *engines.Result
			for budget := int64(3); ; budget *= 2 {
				if got, _, err = h.Run(context.Background(), budget); err != nil {
					t.Fatalf("program %d under %v: %v", i, m, err)
				}
				if got != nil || h.Exhausted() {
					break
				}
			}
			if (got != nil) != (want.Status == engines.Unsafe) {
				t.Fatalf("program %d under %v: the hunt found %v, the search answers %v", i, m, got, want.Status)
			}
			if got != nil {
				found++
				if got.Trace.Model != m {
					t.Fatalf("program %d under %v: a trace under %v", i, m, got.Trace.Model)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no hunt found a bad state")
	}
}
