package explicit_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// TestLoadsDrained checks the static test behind searching x86-TSO under
// SC: it holds exactly when no read can find a store in its process's
// buffer.
func TestLoadsDrained(t *testing.T) {
	writeRead := &model.Program{Name: "write, then read", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 1)}, {Name: "y", Dom: model.Range(0, 1)}}}
	q := &model.Process{Name: "P", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
	for _, l := range []string{"L0", "L1", "L2", "L3"} {
		q.AddLoc(l, model.Pos{})
	}
	q.AddTrans(0, model.WriteOp(0, model.C(1)), 1, model.Pos{})
	q.AddTrans(1, model.AssignOp(0, model.C(1)), 2, model.Pos{})
	q.AddTrans(2, model.ReadOp(1, 0), 3, model.Pos{})
	writeRead.Procs = []*model.Process{q}
	for _, tc := range []struct {
		name string
		p    *model.Program
		want bool
	}{
		{"fenced Dekker", dekker(true), true},
		{"unfenced Dekker", dekker(false), false},
		{"a write, a local step, a read", writeRead, false},
		{"the same with a fence", fenceWrites(writeRead), true},
		{"test and set: the lock is read again after its release", symmetricBug(), false},
		{"test and set, fenced", fenceWrites(symmetricBug()), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.p.Index()
			if got := facts.LoadsDrained(tc.p); got != tc.want {
				t.Fatalf("LoadsDrained = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDrainedSC compares the engine's answers to TSO questions with those
// of the search of the store buffers themselves (KeepBuffers), on
// generated programs as they are and with a fence after every plain write,
// which makes every read find its buffer empty, so that the engine
// searches under SC: the verdicts must be the same, and every Unsafe
// answer's trace, turned into a TSO trace, replays under TSO (Check
// verifies it). The programs as they are catch a LoadsDrained that holds
// where a read can see a buffered store.
func TestDrainedSC(t *testing.T) {
	n := 300
	if longtest.Quick() {
		n = 60
	}
	counts := map[engines.Status]int{}
	drained := 0
	for _, gen := range []func(*rand.Rand) *model.Program{
		progen.Simple,
		func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		},
	} {
		rng := rand.New(rand.NewPCG(5, 17))
		for i := range 2 * n {
			p := gen(rng)
			if i%2 == 1 {
				p = fenceWrites(p)
				p.Index()
				if !facts.LoadsDrained(p) {
					t.Fatalf("program %d: a fence after every write leaves a read with a store in its buffer", i)
				}
				drained++
			}
			sc, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			tso, err := (&explicit.Engine{KeepBuffers: true}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatalf("program %d: %v", i, err)
			}
			if sc.Status != tso.Status {
				t.Fatalf("program %d: searched under SC %v, with buffers %v", i, sc, tso)
			}
			if sc.Status == engines.Unsafe && sc.Trace.Model != model.TSO {
				t.Fatalf("program %d: the trace is under %v", i, sc.Trace.Model)
			}
			counts[sc.Status]++
		}
	}
	t.Logf("verdicts: %v; %d fenced programs searched under SC", counts, drained)
	if counts[engines.Safe] == 0 || counts[engines.Unsafe] == 0 {
		t.Errorf("verdicts %v: the generators no longer cover both answers", counts)
	}
}

// fenceWrites returns p with a fence after every plain write.
func fenceWrites(p *model.Program) *model.Program {
	p.Index()
	return fence.Insert(p, fence.Candidates(p, fence.AfterWrites, nil))
}
