package sb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model"
)

// straightLine builds a program of processes running ops in sequence, with
// shared x, y in [0:1] and one register $r in [0:1] per process; the bad
// state is every process at its end with the registers equal to want.
func straightLine(procs [][]model.Op, want []int64) *model.Program {
	p := &model.Program{Name: "gen", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 1)}, {Name: "y", Dom: model.Range(0, 1)}}}
	bad := model.BadState{}
	var cond model.Expr
	for i, ops := range procs {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
		l := q.AddLoc("L0", model.Pos{})
		for k, o := range ops {
			n := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			q.AddTrans(l, o, n, model.Pos{})
			l = n
		}
		p.Procs = append(p.Procs, q)
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		eq := model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 0}, model.C(want[i]))
		if cond == nil {
			cond = eq
		} else {
			cond = model.Bin(model.OpAnd, cond, eq)
		}
	}
	bad.Cond = cond
	p.Bad = []model.BadState{bad}
	return p
}

func TestHandWritten(t *testing.T) {
	w := func(x int, v int64) model.Op { return model.WriteOp(x, model.C(v)) }
	r := func(x int) model.Op { return model.ReadOp(x, 0) }
	for _, tc := range []struct {
		name  string
		procs [][]model.Op
		want  []int64
		bug   bool
	}{
		{"store buffering", [][]model.Op{{w(0, 1), r(1)}, {w(1, 1), r(0)}}, []int64{0, 0}, true},
		{"store buffering with fences", [][]model.Op{{w(0, 1), model.FenceOp(), r(1)}, {w(1, 1), model.FenceOp(), r(0)}}, []int64{0, 0}, false},
		{"own write is forwarded", [][]model.Op{{w(0, 1), r(0)}}, []int64{0}, false},
		{"load buffering", [][]model.Op{{r(0), w(1, 1)}, {r(1), w(0, 1)}}, []int64{1, 1}, false},
		{"exchange drains the buffer", [][]model.Op{{model.Exchange(0, -1, model.C(1)), r(1)}, {model.Exchange(1, -1, model.C(1)), r(0)}}, []int64{0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := straightLine(tc.procs, tc.want)
			res, err := (&sb.Engine{}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Status == engines.Unsafe; got != tc.bug || res.Status == engines.Inconclusive {
				t.Fatalf("got %v, want bug=%v", res, tc.bug)
			}
		})
	}
}

// TestDifferential compares the sb engine with the explicit engine, which
// is exact on loop-free programs, on generated two-process programs. Every
// conclusive sb verdict must agree; every sb counterexample has been
// replayed (engines.Verify) before it is returned.
func TestDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	genOp := func() model.Op {
		x := rng.IntN(2)
		switch rng.IntN(6) {
		case 0, 1:
			return model.WriteOp(x, model.C(int64(rng.IntN(2))))
		case 2, 3:
			return model.ReadOp(x, 0)
		case 4:
			return model.FenceOp()
		default:
			return model.Exchange(x, 0, model.C(int64(rng.IntN(2))))
		}
	}
	const programs = 60
	conclusive := 0
	for i := range programs {
		procs := make([][]model.Op, 2)
		for k := range procs {
			for range 1 + rng.IntN(3) {
				procs[k] = append(procs[k], genOp())
			}
		}
		p := straightLine(procs, []int64{int64(rng.IntN(2)), int64(rng.IntN(2))})
		want, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatal(err)
		}
		got, err := (&sb.Engine{MaxConstraints: 4000}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		if got.Status == engines.Inconclusive {
			continue
		}
		conclusive++
		if got.Status != want.Status {
			t.Errorf("program %d: sb %v, explicit %v\n%v", i, got, want, procs)
		}
	}
	t.Logf("%d/%d programs conclusive within the budget of 4000 constraints", conclusive, programs)
	if conclusive == 0 {
		t.Error("no program conclusive: the comparison tested nothing")
	}
}
