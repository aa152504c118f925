package explicit_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// diffReduction checks p under m with the reductions named by reduced and
// without any, with the buffer bound bound, and requires the same verdict
// and a counterexample that replays.
func diffReduction(t *testing.T, name string, p *model.Program, m model.Model, bound int, reduced explicit.Engine) (full, red int64) {
	t.Helper()
	ctx := context.Background()
	plain := explicit.Engine{Bound: bound, NoPOR: true, NoSymmetry: true}
	reduced.Bound = bound
	want, err := plain.Check(ctx, p, m)
	if err != nil {
		t.Fatalf("%s under %v, unreduced: %v", name, m, err)
	}
	got, err := reduced.Check(ctx, p, m)
	if err != nil {
		t.Fatalf("%s under %v, reduced: %v", name, m, err)
	}
	if got.Status != want.Status {
		t.Errorf("%s under %v (bound %d): reduced search says %v, unreduced %v", name, m, bound, got, want)
		return 0, 0
	}
	if got.Status == engines.Unsafe {
		if _, err := p.Replay(got.Trace); err != nil {
			t.Errorf("%s under %v: the reduced search's counterexample does not replay: %v", name, m, err)
		}
	}
	if got.Status == engines.Safe && got.Stats.States > want.Stats.States {
		t.Errorf("%s under %v: the reduced search visited %d states, the unreduced %d", name, m, got.Stats.States, want.Stats.States)
	}
	return want.Stats.States, got.Stats.States
}

// TestReductionDifferential compares the reduced searches with the
// unreduced one on generated programs, under SC and TSO, with a fixed
// buffer bound (the reductions are exact for every bound) and with the
// engine's own choice of bound.
func TestReductionDifferential(t *testing.T) {
	n := 150
	if longtest.Quick() {
		n = 30
	}
	for _, tc := range []struct {
		name    string
		gen     func(*rand.Rand) *model.Program
		engine  explicit.Engine
		classes bool // the generator's programs have interchangeable processes
	}{
		{"por/simple", progen.Simple, explicit.Engine{NoSymmetry: true}, false},
		{"por/race", func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{})
		}, explicit.Engine{NoSymmetry: true}, false},
		{"symmetry/symmetric", progen.Symmetric, explicit.Engine{NoPOR: true}, true},
		{"both/symmetric", progen.Symmetric, explicit.Engine{}, true},
		{"both/simple", progen.Simple, explicit.Engine{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var full, red int64
			unsafe := 0
			n := n
			if longtest.Quick() && strings.HasSuffix(tc.name, "/simple") {
				n /= 3 // the simple generator's programs are the largest
			}
			for seed := range n {
				rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
				p := tc.gen(rng)
				if tc.classes && len(explore.Classes(p)) == 0 {
					t.Fatalf("seed %d: no interchangeable processes found in a program built with them", seed)
				}
				for _, m := range []model.Model{model.SC, model.TSO} {
					for _, bound := range []int{0, 2} {
						if m == model.SC && bound > 0 {
							continue
						}
						if _, finite := facts.DrainBound(p); m == model.TSO && bound == 0 && !finite {
							continue // the rounds of growing bounds are tested apart
						}
						f, r := diffReduction(t, p.Name+" seed "+strconv.Itoa(seed), p, m, bound, tc.engine)
						full += f
						red += r
					}
				}
				if res, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO); err == nil && res.Status == engines.Unsafe {
					unsafe++
				}
			}
			if unsafe == 0 || unsafe == n {
				t.Errorf("%d of %d programs unsafe under TSO: the generator does not exercise both verdicts", unsafe, n)
			}
			if red >= full {
				t.Errorf("the reduction visited %d states in all, the unreduced search %d", red, full)
			}
			t.Logf("%d programs (%d unsafe under TSO): %d states unreduced, %d reduced", n, unsafe, full, red)
		})
	}
}

// TestReductionFindsBugs runs small programs whose bad state a reduction
// could miss if it dropped one of its provisos: every one must be found
// with the reductions on, under SC and TSO.
func TestReductionFindsBugs(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    *model.Program
	}{
		{"visible local steps", visibleLocal()},
		{"a process spinning locally forever", ignoring()},
		{"a read enabled by another process", enabledByOther()},
		{"interchangeable processes", symmetricBug()},
		{"a store after a chain of local steps", localChain()},
	} {
		for _, m := range []model.Model{model.SC, model.TSO} {
			t.Run(tc.name+"/"+m.String(), func(t *testing.T) {
				res, err := (&explicit.Engine{}).Check(context.Background(), tc.p, m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != engines.Unsafe {
					t.Fatalf("got %v, want unsafe", res)
				}
				if _, err := tc.p.Replay(res.Trace); err != nil {
					t.Fatalf("trace does not replay: %v", err)
				}
			})
		}
	}
}

// localChain is a loop of local steps, as Go's lowering makes them (an
// index set, tested and incremented), before a store that another process
// reads: the bad state needs the whole chain, which the search takes
// without storing its states (accelerate), and a trace that replays
// every step of it.
func localChain() *model.Program {
	p := &model.Program{Name: "chain", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 3)}}}
	p0 := &model.Process{Name: "P0", Regs: []model.Reg{{Name: "i", Dom: model.Range(0, 3)}}}
	for _, l := range []string{"L0", "L1", "L2", "L3", "L4"} {
		p0.AddLoc(l, model.Pos{})
	}
	i := model.R(0)
	p0.AddTrans(0, model.AssignOp(0, model.C(0)), 1, model.Pos{})
	p0.AddTrans(1, model.GuardOp(model.Bin(model.OpLt, i, model.C(2))), 2, model.Pos{})
	p0.AddTrans(2, model.AssignOp(0, model.Bin(model.OpAdd, i, model.C(1))), 1, model.Pos{})
	p0.AddTrans(1, model.GuardOp(model.Bin(model.OpGe, i, model.C(2))), 3, model.Pos{})
	p0.AddTrans(3, model.WriteOp(0, i), 4, model.Pos{})
	p1 := &model.Process{Name: "P1", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 3)}}}
	p1.AddLoc("M0", model.Pos{})
	p1.AddLoc("M1", model.Pos{})
	p1.AddTrans(0, model.ReadOp(0, 0), 1, model.Pos{})
	p.Procs = []*model.Process{p0, p1}
	p.Bad = []model.BadState{{Name: "P1 read 2", Locs: []model.ProcLoc{{Proc: 1, Loc: 1}},
		Cond: model.Bin(model.OpEq, model.RegRef{Proc: 1, Reg: 0}, model.C(2))}}
	return p
}

// visibleLocal is two processes of local steps; the bad state is P0 in the
// middle of its steps while P1 is past its one. A reduction that took
// P0's steps alone (they are independent of P1's) would pass the bad state
// by; the visibility proviso stops it.
func visibleLocal() *model.Program {
	p := &model.Program{Name: "visible"}
	p0 := &model.Process{Name: "P0"}
	for _, l := range []string{"L0", "L1", "L2"} {
		p0.AddLoc(l, model.Pos{})
	}
	p0.AddTrans(0, model.NopOp(), 1, model.Pos{})
	p0.AddTrans(1, model.NopOp(), 2, model.Pos{})
	p1 := &model.Process{Name: "P1"}
	p1.AddLoc("M0", model.Pos{})
	p1.AddLoc("M1", model.Pos{})
	p1.AddTrans(0, model.NopOp(), 1, model.Pos{})
	p.Procs = []*model.Process{p0, p1}
	p.Bad = []model.BadState{{Name: "P0 in the middle, P1 done", Locs: []model.ProcLoc{{Proc: 0, Loc: 1}, {Proc: 1, Loc: 1}}}}
	return p
}

// ignoring is a process that counts modulo 3 forever (a cycle of local,
// invisible steps) beside one whose single step is bad. A reduction
// without the cycle proviso would expand only the first process, around its
// cycle, and never take the second's step.
func ignoring() *model.Program {
	p := &model.Program{Name: "ignoring"}
	p0 := &model.Process{Name: "P0", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 2)}}}
	p0.AddLoc("L0", model.Pos{})
	p0.AddLoc("L1", model.Pos{})
	p0.AddTrans(0, model.AssignOp(0, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.R(0), model.C(1)), model.C(3))), 0, model.Pos{})
	p0.AddTrans(0, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(5))), 1, model.Pos{}) // never: keeps r live
	p1 := &model.Process{Name: "P1"}
	p1.AddLoc("M0", model.Pos{})
	p1.AddLoc("M1", model.Pos{})
	p1.AddTrans(0, model.NopOp(), 1, model.Pos{})
	p.Procs = []*model.Process{p0, p1}
	p.Bad = []model.BadState{{Name: "P1 done", Locs: []model.ProcLoc{{Proc: 1, Loc: 1}}}}
	return p
}

// enabledByOther is a read that waits for a value another process writes
// (its enabledness depends on shared memory), then a bad location.
func enabledByOther() *model.Program {
	p := &model.Program{Name: "enabled", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 1)}, {Name: "y", Dom: model.Range(0, 1)}}}
	p0 := &model.Process{Name: "P0"}
	for _, l := range []string{"L0", "L1", "L2"} {
		p0.AddLoc(l, model.Pos{})
	}
	p0.AddTrans(0, model.ReadEqOp(0, model.C(1)), 1, model.Pos{})
	p0.AddTrans(1, model.WriteOp(1, model.C(1)), 2, model.Pos{})
	p1 := &model.Process{Name: "P1"}
	for _, l := range []string{"M0", "M1", "M2"} {
		p1.AddLoc(l, model.Pos{})
	}
	p1.AddTrans(0, model.WriteOp(0, model.C(1)), 1, model.Pos{})
	p1.AddTrans(1, model.ReadEqOp(1, model.C(1)), 2, model.Pos{})
	p.Procs = []*model.Process{p0, p1}
	p.Bad = []model.BadState{{Name: "P1 saw P0's answer", Locs: []model.ProcLoc{{Proc: 1, Loc: 2}}}}
	return p
}

// symmetricBug is three copies of a lock whose test and set are separate
// steps: two copies can hold it at once.
func symmetricBug() *model.Program {
	p := &model.Program{Name: "testset", Vars: []model.Var{{Name: "lock", Dom: model.Range(0, 1)}}}
	var bad []model.BadState
	for i := range 3 {
		q := &model.Process{Name: "G" + strconv.Itoa(i)}
		for _, l := range []string{"try", "set", "cs"} {
			q.AddLoc(l, model.Pos{})
		}
		q.AddTrans(0, model.ReadEqOp(0, model.C(0)), 1, model.Pos{})
		q.AddTrans(1, model.WriteOp(0, model.C(1)), 2, model.Pos{})
		q.AddTrans(2, model.WriteOp(0, model.C(0)), 0, model.Pos{})
		p.Procs = append(p.Procs, q)
		for j := range i {
			bad = append(bad, model.BadState{Locs: []model.ProcLoc{{Proc: j, Loc: 2}, {Proc: i, Loc: 2}}})
		}
	}
	p.Bad = bad
	return p
}

// TestClasses checks the detection of interchangeable processes.
func TestClasses(t *testing.T) {
	asym := symmetricBug()
	asym.Bad = asym.Bad[:1] // G0 and G1 both in cs: G2 is not interchangeable with them
	for _, tc := range []struct {
		name string
		p    *model.Program
		want [][]int
	}{
		{"three copies", symmetricBug(), [][]int{{0, 1, 2}}},
		{"bad states name two of them", asym, nil},
		{"different code", visibleLocal(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := explore.Classes(tc.p)
			if len(got) != len(tc.want) {
				t.Fatalf("got classes %v, want %v", got, tc.want)
			}
			for k := range got {
				if len(got[k]) != len(tc.want[k]) {
					t.Fatalf("got classes %v, want %v", got, tc.want)
				}
				for j := range got[k] {
					if got[k][j] != tc.want[k][j] {
						t.Fatalf("got classes %v, want %v", got, tc.want)
					}
				}
			}
		})
	}
}

// TestDrainBound checks the buffer bound from draining operations.
func TestDrainBound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		p      *model.Program
		want   int
		finite bool
	}{
		{"fenced Dekker, looping", dekker(true), 2, true},
		{"unfenced Dekker, looping", dekker(false), 0, false},
		{"loop-free", enabledByOther(), 1, true},
		{"test and set, looping", symmetricBug(), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, finite := facts.DrainBound(tc.p)
			if finite != tc.finite || finite && n != tc.want {
				t.Fatalf("got %d, %v; want %d, %v", n, finite, tc.want, tc.finite)
			}
		})
	}
}

// TestAutoBound checks the rounds of growing buffer bounds on a program
// whose loop writes (the control graph does not bound its buffer) but runs
// five times: the buffer holds at most five stores.
func TestAutoBound(t *testing.T) {
	p := &model.Program{Name: "counted", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 5)}}}
	w := &model.Process{Name: "W", Regs: []model.Reg{{Name: "k", Dom: model.Range(0, 5)}}}
	for _, l := range []string{"L0", "L1", "L2", "L3"} {
		w.AddLoc(l, model.Pos{})
	}
	w.AddTrans(0, model.WriteOp(0, model.R(0)), 1, model.Pos{})
	w.AddTrans(1, model.AssignOp(0, model.Bin(model.OpAdd, model.R(0), model.C(1))), 2, model.Pos{})
	w.AddTrans(2, model.GuardOp(model.Bin(model.OpLt, model.R(0), model.C(5))), 0, model.Pos{})
	w.AddTrans(2, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(5))), 3, model.Pos{})
	r := &model.Process{Name: "R", Regs: []model.Reg{{Name: "a", Dom: model.Range(0, 5)}, {Name: "b", Dom: model.Range(0, 5)}}}
	for _, l := range []string{"M0", "M1", "M2"} {
		r.AddLoc(l, model.Pos{})
	}
	r.AddTrans(0, model.ReadOp(0, 0), 1, model.Pos{})
	r.AddTrans(1, model.ReadOp(0, 1), 2, model.Pos{})
	p.Procs = []*model.Process{w, r}
	// The stores land in order: R never sees x go down.
	p.Bad = []model.BadState{{Name: "x went down", Locs: []model.ProcLoc{{Proc: 1, Loc: 2}},
		Cond: model.Bin(model.OpLt, model.RegRef{Proc: 1, Reg: 1}, model.RegRef{Proc: 1, Reg: 0})}}
	if _, finite := facts.DrainBound(p); finite {
		t.Fatal("the drain bound of a loop that writes is finite")
	}
	for _, tc := range []struct {
		name      string
		e         explicit.Engine
		wantBound string
	}{
		// R never writes and W never reads, so every read finds its buffer
		// empty and the engine would search under SC: KeepBuffers keeps
		// the buffers whose bounds this test is about.
		{"automatic", explicit.Engine{KeepBuffers: true}, ""},
		{"automatic, unreduced", explicit.Engine{KeepBuffers: true, NoPOR: true, NoSymmetry: true}, ""},
		{"bound 2", explicit.Engine{KeepBuffers: true, Bound: 2}, "buffer bound 2"},
		{"bound 5", explicit.Engine{KeepBuffers: true, Bound: 5}, ""},
		{"searched under SC", explicit.Engine{Bound: 2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.e.Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Safe || res.Bound != tc.wantBound {
				t.Fatalf("got %v (bound %q), want safe with bound %q", res, res.Bound, tc.wantBound)
			}
		})
	}
}

// TestNeverEnabledChecks checks that a bounds check the values of its
// register never fail, as Go's lowering of arr[j] makes (a guard
// j < lo || j > hi into an "index out of range" panic, a bad location),
// costs the reduced search nothing: added at every location of every
// process with a register, it leaves the verdict and the number of states
// as they were.
func TestNeverEnabledChecks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for i := range 60 {
		p := progen.Simple(r)
		if i%2 == 1 {
			p = progen.Race(r, progen.RaceOptions{})
		}
		q := p.Clone()
		for pi, proc := range q.Procs {
			if len(proc.Regs) == 0 {
				continue
			}
			d := proc.Regs[0].Dom
			if d.Unbounded {
				continue
			}
			reg := model.RegRef{Proc: -1, Reg: 0}
			check := model.GuardOp(model.Binary{Op: model.OpOr,
				X: model.Binary{Op: model.OpLt, X: reg, Y: model.Const{Value: d.Lo}},
				Y: model.Binary{Op: model.OpGt, X: reg, Y: model.Const{Value: d.Hi}}})
			n := len(proc.Locs)
			panicLoc := proc.AddLoc("OOB", model.Pos{})
			for l := range n {
				proc.AddTrans(l, check, panicLoc, model.Pos{})
			}
			q.Bad = append(q.Bad, model.BadState{Name: "index out of range", Locs: []model.ProcLoc{{Proc: pi, Loc: panicLoc}}})
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("program %d with bounds checks: %v", i, err)
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			// The checks read the register everywhere, which would keep
			// it live where it was dead: compare with dead registers kept.
			e := explicit.Engine{Bound: 2, KeepDead: true}
			want, err := e.Check(context.Background(), p, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Check(context.Background(), q, m)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != want.Status || got.Status == engines.Safe && got.Stats.States != want.Stats.States {
				t.Errorf("program %d under %v: with bounds checks %v (%d states), without %v (%d states)", i, m, got.Status, got.Stats.States, want.Status, want.Stats.States)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no program was checked")
	}
}
