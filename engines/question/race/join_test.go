package race

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestJoinsSound checks every question that a counted join answers
// "ordered" on generated programs with a WaitGroup (progen's Join: exact
// counts, counts one short, accesses after Done): the instrumented
// program, searched without reductions, never reaches its bad state. It
// also checks that the pruning answers some questions, and that it
// answers none when the counter starts one short.
func TestJoinsSound(t *testing.T) {
	n := longtest.Size(150, 1500)
	rng := rand.New(rand.NewPCG(3, 41))
	eng := &explicit.Engine{NoPOR: true, NoSymmetry: true}
	pruned, checked, confirmed, faulted := 0, 0, 0, 0
	for i := range n {
		p := progen.Race(rng, progen.RaceOptions{Loops: i%2 == 0, Join: true})
		in := instrument(p, func(a Access) string { return fmt.Sprintf("%d/%d", a.Proc, a.Trans) })
		js := joins(p)
		short := p.Vars[len(p.Vars)-1].Init.Value < int64(len(p.Procs)-1)
		if short && len(js) > 0 {
			t.Fatalf("program %d: a counter one short of its decrements taken for a join\n%s", i, native.Format(p))
		}
		for _, ck := range in.checks {
			checked++
			if !in.ordered(ck, statics{joins: js}) {
				continue
			}
			pruned++
			q := in.prog
			q.Bad = []model.BadState{{
				Name: "race",
				Locs: []model.ProcLoc{{Proc: ck.q, Loc: ck.loc}},
				Cond: model.Bin(model.OpEq, model.V(in.bit[ck.q][ck.c]), model.C(1)),
			}}
			r, err := eng.Check(context.Background(), q, model.SC)
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			if r.Status == engines.Unsafe {
				if states, err := q.Replay(r.Trace); err == nil && states[len(states)-1].Fault != nil {
					faulted++ // the search stopped at a fault of the program first
					continue
				}
			}
			confirmed++
			if r.Status != engines.Safe {
				t.Fatalf("program %d: the join orders process %d at L%d (transitions %v) and site %d (process %d, transitions %v), but the search says %v\n%s%s",
					i, ck.q, ck.loc, ck.trans, ck.c, in.sites[ck.c].proc, in.sites[ck.c].trans, r.Status, native.Format(p), fmtTrace(q, r.Trace))
			}
		}
	}
	if confirmed == 0 {
		t.Fatalf("no question of %d answered by a join and confirmed (%d pruned, %d stopped at a fault)", checked, pruned, faulted)
	}
	t.Logf("%d of %d questions answered by a join: %d confirmed by a search, %d where the search stopped at a fault of the program", pruned, checked, confirmed, faulted)
}

func fmtTrace(q *model.Program, t *model.Trace) string {
	states, err := q.Replay(t)
	if err != nil {
		return err.Error()
	}
	return q.FormatTrace(t, states)
}
