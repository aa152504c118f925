package pred_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

func load(t testing.TB, name string) *model.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := native.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestModels(t *testing.T) {
	requireZ3(t)
	for _, tc := range []struct {
		file string
		m    model.Model
		want engines.Status
	}{
		{"sb.fcm", model.SC, engines.Safe},
		{"sb.fcm", model.TSO, engines.Unsafe},
		{"counter.fcm", model.SC, engines.Unsafe},
		{"counter.fcm", model.TSO, engines.Unsafe},
		{"ticket.fcm", model.SC, engines.Safe},
		{"ticket.fcm", model.TSO, engines.Safe},
	} {
		t.Run(tc.file+"/"+tc.m.String(), func(t *testing.T) {
			p := load(t, tc.file)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			rep, err := (&pred.Engine{}).Analyze(ctx, p, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v; k=%d, %d iterations, predicates %q, %d queries, %d solver calls", rep.Result, rep.K, rep.Iterations, rep.Predicates, rep.Queries, rep.SolverCalls)
			if rep.Result.Status != tc.want {
				t.Fatalf("got %v, want %v", rep.Result.Status, tc.want)
			}
		})
	}
}

// TestMinInt64Guard is a regression test: the guard 2r + MinInt64 <= 0
// holds for every r of 0..1, so the end is reachable, but the guard's
// normalisation (divided by 2) once overflowed into r <= -2^62, and the
// engine answered safe.
func TestMinInt64Guard(t *testing.T) {
	requireZ3(t)
	p := &model.Program{Name: "minint", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 1)}}}
	q := &model.Process{Name: "P", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
	for _, l := range []string{"L0", "L1", "L2"} {
		q.AddLoc(l, model.Pos{})
	}
	q.AddTrans(0, model.ReadOp(0, 0), 1, model.Pos{})
	twice := model.Bin(model.OpMul, model.C(2), model.R(0))
	q.AddTrans(1, model.GuardOp(model.Bin(model.OpLe, model.Bin(model.OpAdd, twice, model.C(math.MinInt64)), model.C(0))), 2, model.Pos{})
	p.Procs = []*model.Process{q}
	p.Bad = []model.BadState{{Name: "end", Locs: []model.ProcLoc{{Proc: 0, Loc: 2}}}}
	for _, m := range []model.Model{model.SC, model.TSO} {
		res, err := (&pred.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != engines.Unsafe {
			t.Errorf("under %v: %v, want unsafe", m, res)
		}
	}
}
