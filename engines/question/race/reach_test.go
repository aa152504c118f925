package race_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestReach checks the SC reachability answer that the race check's first
// phase gives with Options.Reach against the explicit engine's search of
// the program without reductions: the same status, and a trace of the
// program to one of its own bad states. Generated programs with bad
// states, with and without loops, racy and race-free.
func TestReach(t *testing.T) {
	n := longtest.Size(80, 1500)
	rng := rand.New(rand.NewPCG(5, 17))
	decided := map[engines.Status]int{}
	for i := range n {
		p := progen.Race(rng, progen.RaceOptions{Loops: i%2 == 0, Bad: true})
		ctx := context.Background()
		res, err := race.Check(ctx, &explicit.Engine{}, p, race.Options{Reach: true})
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		if res.Reach == nil {
			continue
		}
		want, err := (&explicit.Engine{NoPOR: true, NoSymmetry: true}).Check(ctx, p, model.SC)
		if err != nil {
			t.Fatalf("program %d: oracle: %v", i, err)
		}
		if res.Reach.Status != want.Status {
			t.Fatalf("program %d: reach %v, the SC search %v\n%s", i, res.Reach.Status, want.Status, native.Format(p))
		}
		decided[res.Reach.Status]++
		if res.Reach.Status != engines.Unsafe {
			continue
		}
		states, err := p.Replay(res.Reach.Trace)
		if err != nil {
			t.Fatalf("program %d: the reach trace does not replay: %v", i, err)
		}
		if last := states[len(states)-1]; last.Fault != nil || p.MatchBad(last) < 0 {
			t.Fatalf("program %d: the reach trace ends in no bad state\n%s", i, native.Format(p))
		}
	}
	t.Logf("reach decided: %v", decided)
	if decided[engines.Safe] == 0 || decided[engines.Unsafe] == 0 {
		t.Errorf("reach decided %v: both answers should occur among %d programs", decided, n)
	}
}
