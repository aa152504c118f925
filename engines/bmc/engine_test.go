package bmc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
)

// spinProgram: one process spins on a compare-and-swap of m (a self loop),
// the other counts x up to n by a loop of plain accesses; the bad state is
// x = n.
func spinProgram(n int64) *model.Program {
	p := &model.Program{Name: "spin"}
	m := addVar(p, "m", 1)
	x := addVar(p, "x", n)
	a := newProc("A")
	a.lock(m)
	p.Procs = append(p.Procs, a.q)
	b := newProc("B", reg("r", n))
	head := b.cur
	b.emit(model.ReadOp(x, 0))
	b.emit(model.GuardOp(model.Bin(model.OpLt, model.R(0), model.C(n))))
	b.emit(model.WriteOp(x, model.Bin(model.OpAdd, model.R(0), model.C(1))))
	b.q.AddTrans(b.cur, model.NopOp(), head, model.Pos{})
	p.Procs = append(p.Procs, b.q)
	p.Bad = []model.BadState{{Name: "x full", Cond: model.Bin(model.OpEq, model.V(x), model.C(n))}}
	return p
}

// sbProgram is the store-buffering litmus test: allowed under TSO only.
func sbProgram() *model.Program {
	p := &model.Program{Name: "sb"}
	x, y := addVar(p, "x", 1), addVar(p, "y", 1)
	bad := model.BadState{Name: "both read 0"}
	for i, v := range [][2]int{{x, y}, {y, x}} {
		b := newProc(fmt.Sprintf("P%d", i), reg("r", 1))
		b.emit(model.WriteOp(v[0], model.C(1)))
		b.emit(model.ReadOp(v[1], 0))
		p.Procs = append(p.Procs, b.q)
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: b.cur})
	}
	bad.Cond = model.Bin(model.OpAnd, model.Bin(model.OpEq, model.RegRef{Proc: 0, Reg: 0}, model.C(0)),
		model.Bin(model.OpEq, model.RegRef{Proc: 1, Reg: 0}, model.C(0)))
	p.Bad = []model.BadState{bad}
	return p
}

func TestUnroll(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         *model.Program
		k         int
		loops     bool
		cut       bool
		transOfA  int // transitions of process A after unrolling
		locsOfB   int
		wantState engines.Status // explicit on the unrolled program, SC
	}{
		{"loop-free", sbProgram(), 2, false, false, 2, 3, engines.Safe},
		{"spin k=0", spinProgram(1), 0, true, true, 1, 4, engines.Unsafe},
		{"spin k=1", spinProgram(2), 1, true, true, 3, 8, engines.Unsafe},
		{"spin k=2", spinProgram(3), 2, true, true, 5, 12, engines.Unsafe},
		{"spin k=1 needs 2", spinProgram(3), 1, true, true, 3, 8, engines.Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := bmc.Unroll(tc.p, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if u.Loops != tc.loops || u.Cut != tc.cut {
				t.Errorf("loops %v cut %v, want %v %v", u.Loops, u.Cut, tc.loops, tc.cut)
			}
			if got := len(u.Prog.Procs[0].Trans); got != tc.transOfA {
				t.Errorf("process A has %d transitions, want %d", got, tc.transOfA)
			}
			if got := len(u.Prog.Procs[1].Locs); got != tc.locsOfB {
				t.Errorf("process B has %d locations, want %d", got, tc.locsOfB)
			}
			for i, q := range u.Prog.Procs {
				for ti, tr := range q.Trans {
					if orig := tc.p.Procs[i].Trans[u.Trans[i][ti]]; orig.Op.Format(tc.p, tc.p.Procs[i]) != tr.Op.Format(u.Prog, q) ||
						u.Loc[i][tr.From] != orig.From || u.Loc[i][tr.To] != orig.To {
						t.Errorf("process %s: transition %d does not copy transition %d", q.Name, ti, u.Trans[i][ti])
					}
				}
			}
			r, err := (&explicit.Engine{}).Check(context.Background(), u.Prog, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.wantState {
				t.Errorf("explicit on the unrolled program: %v, want %v", r.Status, tc.wantState)
			}
			if r.Status == engines.Unsafe {
				if _, err := tc.p.Replay(u.Original(r.Trace)); err != nil {
					t.Errorf("the trace of the unrolled program does not replay on the original: %v", err)
				}
			}
		})
	}
}

// TestBound checks that a safe answer for a program with loops names the
// bound, that an unsafe one needs no bound, and that the answer changes
// when the bound is raised past what the witness needs.
func TestBound(t *testing.T) {
	requireZ3(t)
	for _, tc := range []struct {
		name  string
		p     *model.Program
		k     int
		m     model.Model
		want  engines.Status
		bound string
	}{
		{"too few iterations", spinProgram(3), 1, model.SC, engines.Safe, bmc.BoundText(1)},
		{"enough iterations", spinProgram(3), 2, model.SC, engines.Unsafe, ""},
		{"enough iterations tso", spinProgram(3), 2, model.TSO, engines.Unsafe, ""},
		{"no loop iteration", spinProgram(1), -1, model.SC, engines.Unsafe, ""},
		{"loop-free safe", sbProgram(), 2, model.SC, engines.Safe, ""},
		{"loop-free unsafe", sbProgram(), 2, model.TSO, engines.Unsafe, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, eng := range []*bmc.Engine{{Unroll: tc.k}, {Unroll: tc.k, Full: true}} {
				r, err := eng.Check(context.Background(), tc.p, tc.m)
				if err != nil {
					t.Fatal(err)
				}
				if r.Status != tc.want || r.Bound != tc.bound {
					t.Errorf("full=%v: %v (bound %q), want %v (bound %q)", eng.Full, r.Status, r.Bound, tc.want, tc.bound)
				}
				if r.Status == engines.Unsafe {
					if err := engines.Verify(tc.p, r); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
}

// TestBudgets checks that both budgets end a check as inconclusive, naming
// the budget and the unrolling bound.
func TestBudgets(t *testing.T) {
	requireZ3(t)
	p := mutexSystem(4, false)
	// Full instantiation: refinement proves this system in one solver call.
	r, err := (&bmc.Engine{MaxWork: 10, Full: true}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != engines.Inconclusive || !strings.Contains(r.Reason, "work budget") || !strings.Contains(r.Reason, "unrolling bound 2") {
		t.Errorf("work budget: %v", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	r, err = (&bmc.Engine{}).Check(ctx, p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != engines.Inconclusive || !strings.Contains(r.Reason, "time budget") {
		t.Errorf("time budget: %v", r)
	}
	// Deadlines that end the check at any step, also between solver
	// checks (the interrupt then fails an Assert or a push): never an
	// error, and a verdict only if the check finished in time.
	for d := time.Duration(0); d < 4*time.Millisecond; d += 200 * time.Microsecond {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		r, err := (&bmc.Engine{}).Check(ctx, p, model.SC)
		cancel()
		if err != nil {
			t.Fatalf("deadline %v: %v", d, err)
		}
		if r.Status == engines.Inconclusive && !strings.Contains(r.Reason, "time budget") {
			t.Errorf("deadline %v: %v", d, r)
		}
	}
	// A deadline that ends a long check while Z3 runs.
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// The CPU time spent is the measure: the wall time grows with the
	// machine's load.
	_, cpu := cputime.Measure(func() {
		r, err = (&bmc.Engine{Full: true}).Check(ctx, counterSystem(8, false), model.SC)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != engines.Inconclusive || cpu > 10*time.Second {
		t.Errorf("deadline during a check: %v after %v of CPU time", r, cpu)
	}
}

// TestRace checks the race question on the benchmark systems: the seeded
// bugs race, the correct systems do not within the bound.
func TestRace(t *testing.T) {
	requireZ3(t)
	for _, s := range systems([]int{3, 4}) {
		if s.name == "counter" || s.name == "waitgroup" {
			continue
		}
		t.Run(s.prog.Name+map[bool]string{true: "-bug", false: ""}[s.bug], func(t *testing.T) {
			eng := &bmc.Engine{Unroll: s.unroll}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rc, r, err := raceOnce(ctx, eng, s.prog)
			if err != nil {
				t.Fatal(err)
			}
			if got := rc != nil; got != s.bug {
				t.Fatalf("race %v, want %v (%v)", got, s.bug, r)
			}
			if rc == nil {
				return
			}
			states, err := s.prog.Execute(rc.Trace)
			if err != nil {
				t.Fatal(err)
			}
			last := states[len(states)-1]
			for _, a := range []int{rc.A.Proc, rc.B.Proc} {
				tr := rc.A
				if a == rc.B.Proc {
					tr = rc.B
				}
				if last.Locs[a] != s.prog.Procs[a].Trans[tr.Trans].From {
					t.Errorf("the trace does not end with %+v enabled", tr)
				}
			}
		})
	}
}

// TestUnavailable checks the answer of a build without Z3: inconclusive,
// saying why.
func TestUnavailable(t *testing.T) {
	if smtAvailable() {
		t.Skip("Z3 is available")
	}
	r, err := (&bmc.Engine{}).Check(context.Background(), sbProgram(), model.TSO)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != engines.Inconclusive || !strings.Contains(r.Reason, "unavailable") {
		t.Errorf("without Z3: %v", r)
	}
}

// TestPairsBudget checks that a program whose reads and writes make more
// pairs than the work budget allows ends inconclusive before it is
// encoded, naming the pairs, and that a budget that covers them decides it.
func TestPairsBudget(t *testing.T) {
	p := spinProgram(6)
	for _, tc := range []struct {
		maxWork int64
		want    engines.Status
	}{
		{maxWork: 50, want: engines.Inconclusive},
		{maxWork: 0, want: engines.Unsafe},
	} {
		r, err := (&bmc.Engine{Unroll: 8, MaxWork: tc.maxWork}).Check(context.Background(), p, model.SC)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != tc.want {
			t.Errorf("MaxWork %d: %v (%s), want %v", tc.maxWork, r.Status, r.Reason, tc.want)
		}
		if tc.want == engines.Inconclusive && !strings.Contains(r.Reason, "pairs reads with writes") {
			t.Errorf("MaxWork %d: reason %q does not name the pairs", tc.maxWork, r.Reason)
		}
	}
}
