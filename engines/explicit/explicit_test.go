package explicit_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// dekker returns the flag-based mutual exclusion core of Dekker's algorithm,
// looping forever: each process raises its flag, enters the critical section
// when the other flag is down, then lowers its flag. withFence puts a fence
// after the flag store.
func dekker(withFence bool) *model.Program {
	p := &model.Program{Name: "dekker", Vars: []model.Var{
		{Name: "flag0", Dom: model.Range(0, 1)},
		{Name: "flag1", Dom: model.Range(0, 1)},
	}}
	var cs []model.ProcLoc
	for i := range 2 {
		q := &model.Process{Name: []string{"P0", "P1"}[i]}
		l0 := q.AddLoc("L0", model.Pos{})
		l1 := q.AddLoc("L1", model.Pos{})
		l2 := q.AddLoc("L2", model.Pos{})
		crit := q.AddLoc("CS", model.Pos{})
		q.AddTrans(l0, model.WriteOp(i, model.C(1)), l1, model.Pos{})
		if withFence {
			q.AddTrans(l1, model.FenceOp(), l2, model.Pos{})
		} else {
			q.AddTrans(l1, model.NopOp(), l2, model.Pos{})
		}
		q.AddTrans(l2, model.ReadEqOp(1-i, model.C(0)), crit, model.Pos{})
		q.AddTrans(l2, model.ReadEqOp(1-i, model.C(1)), l2, model.Pos{})
		q.AddTrans(crit, model.WriteOp(i, model.C(0)), l0, model.Pos{})
		cs = append(cs, model.ProcLoc{Proc: i, Loc: crit})
		p.Procs = append(p.Procs, q)
	}
	p.Bad = []model.BadState{{Name: "mutual exclusion", Locs: cs}}
	return p
}

func TestDekker(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		fence   bool
		m       model.Model
		want    engines.Status
		bounded bool
	}{
		{"no fence, SC", false, model.SC, engines.Safe, false},
		{"no fence, TSO", false, model.TSO, engines.Unsafe, false},
		{"fence, TSO", true, model.TSO, engines.Safe, false}, // the fence drains the buffer: exact
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := dekker(tc.fence)
			res, err := (&explicit.Engine{}).Check(ctx, p, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("got %v, want %v", res, tc.want)
			}
			if (res.Bound != "") != tc.bounded {
				t.Errorf("bound %q, want bounded=%v", res.Bound, tc.bounded)
			}
			if res.Status == engines.Unsafe {
				if _, err := p.Replay(res.Trace); err != nil {
					t.Errorf("trace does not replay: %v", err)
				}
			}
		})
	}
}

func TestBudget(t *testing.T) {
	p := dekker(true)
	res, err := (&explicit.Engine{MaxStates: 10}).Check(context.Background(), p, model.TSO)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "state budget of 10") {
		t.Fatalf("got %v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = (&explicit.Engine{}).Check(ctx, p, model.TSO)
	if err != nil || res.Status != engines.Inconclusive {
		t.Fatalf("cancelled: %v, %v", res, err)
	}
}

func TestNondeterministicInit(t *testing.T) {
	// x starts anywhere in [0:3]; reaching x == 3 at the end is bad.
	p := &model.Program{Name: "any", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 3), Init: model.Init{Any: true}}}}
	q := &model.Process{Name: "P0", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 3)}}}
	q.AddLoc("L0", model.Pos{})
	q.AddLoc("L1", model.Pos{})
	q.AddTrans(0, model.ReadOp(0, 0), 1, model.Pos{})
	p.Procs = []*model.Process{q}
	p.Bad = []model.BadState{{Locs: []model.ProcLoc{{Proc: 0, Loc: 1}}, Cond: model.Bin(model.OpEq, model.RegRef{Proc: 0, Reg: 0}, model.C(3))}}
	res, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
	if err != nil || res.Status != engines.Unsafe || res.Trace.InitMem[0] != 3 {
		t.Fatalf("got %v, %v", res, err)
	}
}

func BenchmarkDekkerTSO(b *testing.B) {
	p := dekker(true)
	e := &explicit.Engine{Bound: 6}
	var states int64
	for b.Loop() {
		res, err := e.Check(context.Background(), p, model.TSO)
		if err != nil {
			b.Fatal(err)
		}
		states = res.Stats.States
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkDekkerModel measures throughput on the bundled fenced Dekker model
// with deep store buffers (its state space grows with the bound).
func BenchmarkDekkerModel(b *testing.B) {
	p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "rmm", "dekker_fenced.rmm"))
	if err != nil {
		b.Fatal(err)
	}
	e := &explicit.Engine{Bound: 12}
	var states int64
	for b.Loop() {
		res, err := e.Check(context.Background(), p, model.TSO)
		if err != nil {
			b.Fatal(err)
		}
		states = res.Stats.States
	}
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
