package pred_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// genProgram generates a loop-free program of two or three processes over
// shared x, y in [0:2] (one of them sometimes with any initial value) and a
// register $r in [0:2] per process, with writes, reads, required reads,
// fences, exchanges, fetch-and-adds (which can leave the domain: a fault),
// compare-and-swaps, assumes and increments. The bad state is every process
// at its end with chosen register values.
func genProgram(rng *rand.Rand) *model.Program {
	dom := model.Range(0, 2)
	p := &model.Program{Name: "gen", Vars: []model.Var{{Name: "x", Dom: dom}, {Name: "y", Dom: dom}}}
	if rng.IntN(4) == 0 {
		p.Vars[1].Init = model.Init{Any: true}
	}
	c := func() model.Expr { return model.C(int64(rng.IntN(3))) }
	nproc := 2 + rng.IntN(4)/3
	bad := model.BadState{}
	var cond model.Expr
	for i := range nproc {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: dom}}}
		l := q.AddLoc("L0", model.Pos{})
		n := 1 + rng.IntN(4)
		for k := range n {
			x := rng.IntN(2)
			var op model.Op
			kind := rng.IntN(10)
			if k == 0 && rng.IntN(2) == 0 {
				kind, x = 0, i%2 // store buffering shapes
			}
			switch kind {
			case 0, 1, 2:
				op = model.WriteOp(x, c())
			case 3, 4:
				op = model.ReadOp(x, 0)
				if k > 0 {
					op = model.ReadOp(1-i%2, 0)
				}
			case 5:
				op = model.ReadEqOp(x, c())
			case 6:
				op = model.FenceOp()
			case 7:
				switch rng.IntN(3) {
				case 0:
					op = model.Exchange(x, 0, c())
				case 1:
					op = model.FetchAdd(x, 0, model.C(1))
				default:
					op = model.CASSuccess(x, 0, c(), c())
				}
			case 8:
				op = model.GuardOp(model.Bin(model.OpEq, model.R(0), c()))
			default:
				op = model.AssignOp(0, model.Bin(model.OpAdd, model.R(0), model.C(1)))
			}
			nl := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			q.AddTrans(l, op, nl, model.Pos{})
			l = nl
		}
		p.Procs = append(p.Procs, q)
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		eq := model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 0}, c())
		if cond == nil {
			cond = eq
		} else {
			cond = model.Bin(model.OpAnd, cond, eq)
		}
	}
	if rng.IntN(3) > 0 {
		bad.Cond = cond
	}
	p.Bad = []model.BadState{bad}
	return p
}

// runBoth runs the explicit engine and eng, for twenty seconds at most, on
// program i, p, under m, and returns eng's result and the explicit engine's.
func runBoth(t *testing.T, eng *pred.Engine, i int, p *model.Program, m model.Model) (got, want *engines.Result) {
	t.Helper()
	want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	got, err = eng.Check(ctx, p, m)
	cancel()
	if err != nil {
		t.Fatalf("program %d under %v: %v\n%s", i, m, err, native.Format(p))
	}
	return got, want
}

// checkAgrees checks that got, the pred engine's result on program i, p,
// under m, has the status of want, the explicit engine's, and that an
// unsafe result carries a trace of m.
func checkAgrees(t *testing.T, i int, p *model.Program, m model.Model, got, want *engines.Result) {
	t.Helper()
	if got.Status != want.Status {
		t.Fatalf("program %d under %v: pred says %v, explicit %v\n%s", i, m, got, want.Status, native.Format(p))
	}
	if got.Status == engines.Unsafe && (got.Trace == nil || got.Trace.Model != m) {
		t.Fatalf("program %d under %v: unsafe without a trace of the model", i, m)
	}
}

// TestDifferential compares the verdicts of the pred engine with those of
// the explicit engine, which is exact on loop-free programs, on generated
// programs under TSO and SC: 150 programs normally, 2000 with -long. Every
// Unsafe answer carries a trace that replayed.
func TestDifferential(t *testing.T) {
	requireZ3(t)
	n := longtest.Size(60, 150)
	if *long {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(5, 17))
	eng := &pred.Engine{Fresh: true}
	count := map[string]int{}
	for i := range n {
		p := genProgram(rng)
		var verdict []string
		for _, m := range []model.Model{model.TSO, model.SC} {
			got, want := runBoth(t, eng, i, p, m)
			checkAgrees(t, i, p, m, got, want)
			verdict = append(verdict, fmt.Sprintf("%v %v", m, got.Status))
		}
		count[fmt.Sprint(verdict)]++
	}
	t.Logf("%d programs, verdicts agree: %v", n, count)
}
