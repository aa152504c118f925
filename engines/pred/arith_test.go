package pred_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
)

// genArith generates a loop-free program of two processes over shared x, y
// in [-2:2] with registers $r, $s in [-2:2]: reads, writes and register
// steps that divide and take remainders by registers (Go's truncated
// division; a divisor of zero is a fault, as is a value outside the
// domain), use comparisons and negations as numbers (if-then-else terms),
// and guard a division by a test of its divisor (&& evaluates its right
// operand only when the left one holds). The bad state is both processes at
// their end with chosen register values.
func genArith(rng *rand.Rand) *model.Program {
	dom := model.Range(-2, 2)
	p := &model.Program{Name: "arith", Vars: []model.Var{{Name: "x", Dom: dom}, {Name: "y", Dom: dom, Init: model.Init{Value: 1}}}}
	c := func() model.Expr { return model.C(int64(rng.IntN(5) - 2)) }
	reg := func() model.Expr { return model.R(rng.IntN(2)) }
	operand := func() model.Expr {
		if rng.IntN(3) == 0 {
			return c()
		}
		return reg()
	}
	bad := model.BadState{Name: "end"}
	var cond model.Expr
	for i := range 2 {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: dom}, {Name: "s", Dom: dom}}}
		l := q.AddLoc("L0", model.Pos{})
		n := 2 + rng.IntN(4)
		for k := range n {
			var op model.Op
			switch kind := rng.IntN(12); {
			case k == 0 || kind < 2:
				op = model.ReadOp(rng.IntN(2), rng.IntN(2))
			case kind < 4:
				op = model.WriteOp(rng.IntN(2), operand())
			case kind < 6:
				div := []model.BinOp{model.OpDiv, model.OpMod}[rng.IntN(2)]
				d := reg()
				if rng.IntN(2) == 0 {
					d = model.C([]int64{-2, -1, 1, 2}[rng.IntN(4)])
				}
				op = model.AssignOp(rng.IntN(2), model.Bin(div, operand(), d))
			case kind == 6:
				// A comparison as a number.
				cmp := []model.BinOp{model.OpLt, model.OpLe, model.OpEq}[rng.IntN(3)]
				op = model.AssignOp(rng.IntN(2), model.Bin(model.OpSub, model.Bin(model.OpMul, model.Bin(cmp, reg(), operand()), reg()), model.Bin(cmp, operand(), reg())))
			case kind == 7:
				op = model.AssignOp(rng.IntN(2), model.Not(reg()))
			case kind == 8:
				// A division guarded by its divisor.
				d := reg()
				op = model.GuardOp(model.Bin(model.OpOr, model.Bin(model.OpEq, d, model.C(0)), model.Bin(model.OpGe, model.Bin(model.OpDiv, operand(), d), c())))
			case kind == 9:
				op = model.WriteOp(rng.IntN(2), model.Bin(model.OpMod, operand(), reg()))
			default:
				op = model.GuardOp(model.Bin(model.OpNe, model.Bin(model.OpMod, reg(), operand()), c()))
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

// TestArithDifferential compares the pred engine with the explicit engine,
// exact on these finite loop-free programs, on programs that divide by
// registers, take remainders by them, and use comparisons as numbers, under
// SC and TSO. A division by zero is a fault for both.
func TestArithDifferential(t *testing.T) {
	requireZ3(t)
	n := longtest.Size(40, 400)
	rng := rand.New(rand.NewPCG(30, 2))
	eng := &pred.Engine{Fresh: true}
	count := map[string]int{}
	for i := range n {
		p := genArith(rng)
		if err := p.Validate(); err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			got, want := runBoth(t, eng, i, p, m)
			checkAgrees(t, i, p, m, got, want)
			fault := ""
			if got.Trace != nil {
				if s, err := p.Replay(got.Trace); err == nil && len(s) > 0 && s[len(s)-1].Fault != nil {
					fault = " fault"
				}
			}
			count[fmt.Sprintf("%v %v%s", m, got.Status, fault)]++
		}
	}
	t.Logf("%d programs, verdicts agree: %v", n, count)
}

// arithModels are systems with unbounded integers whose verdicts need the
// arithmetic users write: remainders and quotients by a value known only at
// run time, comparisons used as numbers, and values that wrap as Go's int64
// does. long marks those left to the long suite (seconds of Z3 each).
var arithModels = []struct {
	file string
	m    model.Model
	want engines.Status
	long bool
}{
	{"divzero.fcm", model.SC, engines.Unsafe, false},
	{"divzero.fcm", model.TSO, engines.Unsafe, false},
	{"itemax.fcm", model.SC, engines.Safe, false},
	{"itemax.fcm", model.TSO, engines.Safe, false},
	{"wrapcount.fcm", model.SC, engines.Unsafe, false},
	{"wrapcount.fcm", model.TSO, engines.Unsafe, false},
	{"wrapparity.fcm", model.SC, engines.Safe, false},
	{"modvar.fcm", model.SC, engines.Safe, true},
	{"modvar.fcm", model.TSO, engines.Safe, true},
}

// TestArithModels decides each of arithModels with the verdict worked out
// by hand.
func TestArithModels(t *testing.T) {
	requireZ3(t)
	for _, tc := range arithModels {
		t.Run(tc.file+"/"+tc.m.String(), func(t *testing.T) {
			if tc.long {
				longtest.Skip(t)
			}
			p := load(t, tc.file)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			rep, err := (&pred.Engine{Fresh: true}).Analyze(ctx, p, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v; %d iterations, %d queries, %d solver calls", rep.Result, rep.Iterations, rep.Queries, rep.SolverCalls)
			if rep.Result.Status != tc.want {
				t.Fatalf("got %v (%s), want %v", rep.Result.Status, rep.Result.Reason, tc.want)
			}
		})
	}
}

// BenchmarkArith decides each of arithModels, fails on a verdict other
// than the one worked out by hand, and reports the solver calls that
// reached Z3, the questions asked (most answered by the cache or by
// difference logic), the refinement iterations and the abstract states.
// Run it with -benchtime=1x.
func BenchmarkArith(b *testing.B) {
	requireZ3(b)
	for _, tc := range arithModels {
		b.Run(tc.file+"/"+tc.m.String(), func(b *testing.B) {
			p := load(b, tc.file)
			var rep *pred.Report
			for b.Loop() {
				var err error
				rep, err = (&pred.Engine{Fresh: true}).Analyze(context.Background(), p, tc.m)
				if err != nil {
					b.Fatal(err)
				}
			}
			if rep.Result.Status != tc.want {
				b.Fatalf("got %v (%s), want %v", rep.Result.Status, rep.Result.Reason, tc.want)
			}
			reportPred(b, rep)
		})
	}
}

// reportPred reports the counts of rep as the metrics of b.
func reportPred(b *testing.B, rep *pred.Report) {
	b.ReportMetric(float64(rep.SolverCalls), "z3calls")
	b.ReportMetric(float64(rep.Queries), "queries")
	b.ReportMetric(float64(rep.Iterations), "iterations")
	b.ReportMetric(float64(rep.Result.Stats.States), "states")
}
