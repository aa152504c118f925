package coi_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/native"
)

var long = flag.Bool("long", false, "run the long differential test (10000 programs)")

// genProgram builds a random program from rng for the differential test:
// two or three processes over two or three shared variables in [0:1] or
// [0:2] (the operations of the sb engine's generator: plain and locked
// reads and writes, fences, assignments, guarded backward jumps), and
// things for the reduction to find: a log variable that the processes
// write and, in some programs, read; a register $t per process that moves
// values between reads, the log and itself; in some programs a noise
// process that only writes the log in a loop. The bad state names two
// processes with a register condition, or memory.
func genProgram(rng *rand.Rand) *model.Program {
	hi := int64(1 + rng.IntN(2))
	nvars := 2 + rng.IntN(2)
	p := &model.Program{Name: "gen"}
	for x := range nvars {
		p.Vars = append(p.Vars, model.Var{Name: fmt.Sprintf("v%d", x), Dom: model.Range(0, hi)})
	}
	log := len(p.Vars)
	p.Vars = append(p.Vars, model.Var{Name: "log", Dom: model.Range(0, hi), Init: model.Init{Any: rng.IntN(3) == 0}})
	readsLog := rng.IntN(4) == 0
	nprocs := 2 + rng.IntN(2)
	val := func() model.Expr { return model.C(rng.Int64N(hi + 1)) }
	for i := range nprocs {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{
			{Name: "r", Dom: model.Range(0, hi)}, {Name: "s", Dom: model.Range(0, hi)},
			{Name: "t", Dom: model.Range(0, hi), Init: model.Init{Any: rng.IntN(3) == 0}}}}
		n := 1 + rng.IntN(8)
		for k := 0; k <= n; k++ {
			q.AddLoc(fmt.Sprintf("L%d", k), model.Pos{})
		}
		for k := range n {
			x, r := rng.IntN(nvars), rng.IntN(2)
			var op model.Op
			switch rng.IntN(17) {
			case 0, 1:
				op = model.WriteOp(x, val())
			case 2:
				op = model.WriteOp(x, model.R(r))
			case 3, 4:
				op = model.ReadOp(x, r)
			case 5:
				op = model.FenceOp()
			case 6:
				op = model.Exchange(x, r, val())
			case 7:
				if rng.IntN(2) == 0 {
					op = model.CASSuccess(x, -1, val(), val())
				} else {
					op = model.CASFailure(x, r, val())
				}
			case 8:
				op = model.FetchAdd(x, r, model.C(1))
			case 9:
				op = model.AssignOp(r, model.Bin(model.OpSub, model.C(hi), model.R(r)))
			case 10, 11:
				op = model.WriteOp(log, model.R(2))
			case 12:
				op = model.ReadOp(x, 2)
			case 13:
				op = model.AssignOp(2, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.R(2), model.C(1)), model.C(hi+1)))
			case 14:
				if readsLog {
					op = model.ReadOp(log, r)
				} else {
					op = model.ReadOp(log, 2)
				}
			case 15:
				op = model.LockedOp(model.ReadOp(x, 2), model.WriteOp(log, model.C(1)))
			default:
				// A value that may leave the domain: a fault.
				op = model.AssignOp(2, model.Bin(model.OpAdd, model.R(2), model.C(1)))
			}
			q.AddTrans(k, op, k+1, model.Pos{})
			if k > 0 && rng.IntN(5) == 0 {
				back, c := rng.IntN(k+1), val()
				q.AddTrans(k+1, model.GuardOp(model.Bin(model.OpEq, model.R(r), c)), back, model.Pos{})
			}
		}
		p.Procs = append(p.Procs, q)
	}
	if rng.IntN(3) == 0 {
		q := &model.Process{Name: "noise", Regs: []model.Reg{{Name: "n", Dom: model.Range(0, hi)}}}
		q.AddLoc("N0", model.Pos{})
		q.AddLoc("N1", model.Pos{})
		q.AddTrans(0, model.WriteOp(log, model.R(0)), 1, model.Pos{})
		q.AddTrans(1, model.AssignOp(0, model.Bin(model.OpSub, model.C(hi), model.R(0))), 0, model.Pos{})
		p.Procs = append(p.Procs, q)
	}
	a, b := rng.IntN(nprocs), rng.IntN(nprocs-1)
	if b >= a {
		b++
	}
	la := len(p.Procs[a].Locs) - 1 - rng.IntN(2)
	lb := len(p.Procs[b].Locs) - 1 - rng.IntN(2)
	bad := model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: a, Loc: max(la, 0)}, {Proc: b, Loc: max(lb, 0)}}}
	if rng.IntN(4) == 0 {
		bad.Cond = model.Bin(model.OpEq, model.V(rng.IntN(nvars)), val())
	} else {
		bad.Cond = model.Bin(model.OpAnd,
			model.Bin(model.OpEq, model.RegRef{Proc: a, Reg: 0}, val()),
			model.Bin(model.OpEq, model.RegRef{Proc: b, Reg: 0}, val()))
	}
	p.Bad = []model.BadState{bad}
	return p
}

// TestDifferential compares every engine answer on generated programs
// with the answer on their reduction: 80 programs (1000 in the long suites, 10000 with -long),
// under SC by the explicit engine (exact), under TSO by the sb engine
// (exact; with a budget of 20000 constraints or states, and pairs where
// either side runs out of it are counted, not compared) and, for loop-free programs, by the explicit engine (exact
// then). Every twentieth program (every fifth with -long) also goes
// through the fence inference with all minimal sets, on the sb engine:
// the status and the sets must agree.
func TestDifferential(t *testing.T) {
	programs, every := longtest.Size(80, 1000), 20
	if *long {
		programs, every = 10000, 5
	}
	rng := rand.New(rand.NewPCG(41, 7))
	var stats struct {
		removed, frozen, writes, regs int
		compared, inconclusive        int
		fences                        int
		verdicts                      map[string]int
	}
	stats.verdicts = map[string]int{}
	check := func(p *model.Program, i int, name string, eng engines.Engine, m model.Model, exactOnly bool) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		want, err := eng.Check(ctx, p, m)
		if err != nil {
			t.Fatalf("program %d, %s: %v\n%s", i, name, err, native.Format(p))
		}
		ctx, cancel = context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		got, err := (&coi.Engine{Inner: eng}).Check(ctx, p, m)
		if err != nil {
			t.Fatalf("program %d, %s reduced: %v\n%s", i, name, err, native.Format(p))
		}
		if want.Status == engines.Inconclusive || got.Status == engines.Inconclusive {
			stats.inconclusive++
			return
		}
		if exactOnly && (want.Bound != "" || got.Bound != "") {
			return
		}
		stats.compared++
		stats.verdicts[name+" "+want.Status.String()]++
		if got.Status != want.Status {
			red, _ := coi.Reduce(p)
			t.Fatalf("program %d, %s: %v, reduced %v\n%s\nreduced:\n%s", i, name, want, got, native.Format(p), native.Format(red.Prog))
		}
	}
	for i := range programs {
		p := genProgram(rng)
		red, err := coi.Reduce(p)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, native.Format(p))
		}
		if red.Stats.Removed() {
			stats.removed++
		}
		stats.frozen += red.Stats.FrozenProcs
		stats.writes += red.Stats.Writes
		stats.regs += red.Stats.IrrelevantRegs
		check(p, i, "explicit/sc", &explicit.Engine{}, model.SC, false)
		check(p, i, "sb/tso", &sb.Engine{MaxConstraints: 20_000}, model.TSO, false)
		if _, acyclic := facts.MaxWritesOnPath(p); acyclic {
			check(p, i, "explicit/tso", &explicit.Engine{}, model.TSO, true)
		}
		if i%every == 0 {
			stats.fences++
			compareFences(t, i, p)
		}
	}
	t.Logf("%d programs, %d reduced (%d processes frozen, %d writes removed, %d registers irrelevant); %d answers compared (%v), %d inconclusive; %d fence inferences compared",
		programs, stats.removed, stats.frozen, stats.writes, stats.regs, stats.compared, stats.verdicts, stats.inconclusive, stats.fences)
	if stats.removed < programs/2 {
		t.Errorf("only %d of %d programs had anything to remove", stats.removed, programs)
	}
}

// compareFences runs the fence inference (all minimal sets) on p with the
// sb engine, unreduced and reduced, and requires the same answer.
func compareFences(t *testing.T, i int, p *model.Program) {
	t.Helper()
	infer := func(eng engines.Engine) *fence.Result {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := fence.Infer(ctx, eng, p, fence.Options{All: true})
		if err != nil {
			t.Fatalf("program %d, fences with %T: %v\n%s", i, eng, err, native.Format(p))
		}
		return res
	}
	want := infer(&sb.Engine{MaxConstraints: 20_000})
	got := infer(&coi.Engine{Inner: &sb.Engine{MaxConstraints: 20_000}})
	if want.Status == fence.Inconclusive || got.Status == fence.Inconclusive {
		return
	}
	same := got.Status == want.Status && len(got.Sets) == len(want.Sets)
	for k := 0; same && k < len(want.Sets); k++ {
		same = slices.Equal(got.Sets[k], want.Sets[k])
	}
	if !same {
		t.Fatalf("program %d: fences %s, reduced %s\n%s", i, want.Summary(p), got.Summary(p), native.Format(p))
	}
}

// TestKeepingProcsMoves checks ReduceKeepingProcs on generated programs:
// it freezes no process, and along every run of the original under SC
// the reduced program, taking the same transitions, reaches states from
// which each process takes the same transitions to the same locations,
// faulting alike.
func TestKeepingProcsMoves(t *testing.T) {
	programs := longtest.Size(80, 1000)
	rng := rand.New(rand.NewPCG(43, 11))
	pairs, removed := 0, 0
	for i := range programs {
		p := genProgram(rng)
		red, err := coi.ReduceKeepingProcs(p)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, native.Format(p))
		}
		if red.Stats.FrozenProcs != 0 {
			t.Fatalf("program %d: %d processes frozen\n%s", i, red.Stats.FrozenProcs, native.Format(p))
		}
		if red.Stats.Removed() {
			removed++
		}
		// succ returns the successors of st in q by process proc, keyed by
		// transition and location.
		succ := func(q *model.Program, st model.State, proc int) map[string]model.State {
			out := map[string]model.State{}
			q.ProcSuccessors(st, proc, model.SC, 0, func(step model.Step, next model.State) {
				out[fmt.Sprintf("%d->%d fault=%t", step.Trans, next.Locs[proc], next.Fault != nil)] = next
			})
			return out
		}
		type pair struct{ orig, red model.State }
		seen := map[string]bool{}
		var queue []pair
		visit := func(o, r model.State) {
			if k := string(o.AppendKey(nil)) + "|" + string(r.AppendKey(nil)); !seen[k] && len(seen) < 5000 {
				seen[k] = true
				queue = append(queue, pair{o, r})
			}
		}
		var inits, redInits []model.State
		if err := p.Initial(func(st model.State) { inits = append(inits, st) }); err != nil {
			t.Fatal(err)
		}
		if err := red.Prog.Initial(func(st model.State) { redInits = append(redInits, st) }); err != nil {
			t.Fatal(err)
		}
		// kept is the part of a state the reduction keeps.
		kept := func(st model.State) string {
			var b []int64
			for q, regs := range st.Regs {
				for k, v := range regs {
					if red.Keeps(facts.Cell{Proc: q, Index: k}) {
						b = append(b, v)
					}
				}
			}
			for x, v := range st.Mem {
				if red.Keeps(facts.Cell{Proc: -1, Index: x}) {
					b = append(b, v)
				}
			}
			return fmt.Sprint(st.Locs, b)
		}
		for _, o := range inits {
			for _, r := range redInits {
				if kept(o) == kept(r) {
					visit(o, r)
				}
			}
		}
		for len(queue) > 0 {
			pr := queue[0]
			queue = queue[1:]
			pairs++
			for proc := range p.Procs {
				want, got := succ(p, pr.orig, proc), succ(red.Prog, pr.red, proc)
				if !slices.Equal(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))) {
					t.Fatalf("program %d, process %d: moves %v, reduced %v\n%s\nreduced:\n%s", i, proc, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)), native.Format(p), native.Format(red.Prog))
				}
				for k, o := range want {
					if r := got[k]; o.Fault == nil {
						if kept(o) != kept(r) {
							t.Fatalf("program %d, process %d, step %s: kept %s, reduced %s\n%s", i, proc, k, kept(o), kept(r), native.Format(p))
						}
						visit(o, r)
					}
				}
			}
		}
	}
	t.Logf("%d programs, %d reduced, %d pairs of states compared", programs, removed, pairs)
	if removed < programs/4 {
		t.Errorf("only %d of %d programs had anything to remove", removed, programs)
	}
}
