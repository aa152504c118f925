package sb_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

var long = flag.Bool("long", false, "run the long differential and litmus tests")

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
			// The default engine must answer; the SB search alone must
			// agree whenever it answers within its budget.
			for _, e := range []*sb.Engine{{}, {Backward: true, MaxConstraints: 20_000}} {
				res, err := e.Check(context.Background(), p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status == engines.Inconclusive && e.Backward {
					t.Logf("SB search alone: %v", res)
					continue
				}
				if got := res.Status == engines.Unsafe; got != tc.bug || res.Status == engines.Inconclusive {
					t.Fatalf("backward=%v: got %v, want bug=%v", e.Backward, res, tc.bug)
				}
			}
		})
	}
}

// explicitBug reports whether the explicit engine finds a TSO bug with store
// buffers bounded by 1..4 (false when every bound is safe or inconclusive).
func explicitBug(t testing.TB, p *model.Program) bool {
	t.Helper()
	for bound := 1; bound <= 4; bound++ {
		res, err := (&explicit.Engine{Bound: bound, MaxStates: 200_000}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatalf("explicit, bound %d: %v", bound, err)
		}
		if res.Status == engines.Unsafe {
			return true
		}
	}
	return false
}

// differential checks one program: a bug that the explicit engine finds
// with buffers bounded by 1..4 is found by e, and a Safe verdict of e is
// never contradicted by the explicit engine. Every Unsafe result of e has
// been replayed (engines.Verify) by Check. It returns e's status.
func differential(t testing.TB, e *sb.Engine, p *model.Program, timeout time.Duration) engines.Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	got, err := e.Check(ctx, p, model.TSO)
	if err != nil {
		t.Fatalf("sb: %v\n%s", err, native.Format(p))
	}
	bug := explicitBug(t, p)
	switch {
	case got.Status == engines.Safe && bug:
		t.Errorf("sb says safe, the explicit engine finds a bug:\n%s", native.Format(p))
	case got.Status == engines.Unsafe && got.Trace == nil:
		t.Errorf("sb says unsafe without a trace")
	}
	if bug && got.Status == engines.Inconclusive {
		t.Logf("sb inconclusive on a program with a bug: %v", got)
	}
	return got.Status
}

// TestDifferential compares the engine with the explicit engine on
// generated programs (see progen.Simple): 150 in the quick run, 2000 in
// the long suites, 20000 with -long, where the first 2000 also go through the SB search alone
// (Backward), with pruning and without. (TestBackwardTiny compares the SB
// search alone on programs small enough for it to conclude.)
func TestDifferential(t *testing.T) {
	programs, backward := longtest.Size(150, 2000), 0
	if *long {
		programs, backward = 20000, 2000
	}
	rng := rand.New(rand.NewPCG(3, 12))
	count := map[string]map[engines.Status]int{}
	for i := range programs {
		p := progen.Simple(rng)
		modes := []struct {
			name string
			e    *sb.Engine
			to   time.Duration
		}{{"default", &sb.Engine{}, 5 * time.Second}}
		if i < backward {
			modes = append(modes,
				struct {
					name string
					e    *sb.Engine
					to   time.Duration
				}{"backward", &sb.Engine{Backward: true, MaxConstraints: 3000}, time.Second},
				struct {
					name string
					e    *sb.Engine
					to   time.Duration
				}{"backward-noprune", &sb.Engine{Backward: true, NoPrune: true, MaxConstraints: 3000}, time.Second})
		}
		for _, m := range modes {
			st := differential(t, m.e, p, m.to)
			if count[m.name] == nil {
				count[m.name] = map[engines.Status]int{}
			}
			count[m.name][st]++
		}
		if t.Failed() {
			t.Fatalf("program %d failed", i)
		}
	}
	for _, name := range []string{"default", "backward", "backward-noprune"} {
		c, ok := count[name]
		if !ok {
			continue
		}
		t.Logf("%s: %d programs, %d unsafe, %d safe, %d inconclusive", name,
			c[engines.Safe]+c[engines.Unsafe]+c[engines.Inconclusive], c[engines.Unsafe], c[engines.Safe], c[engines.Inconclusive])
	}
	if c := count["default"]; c[engines.Safe] == 0 || c[engines.Unsafe] == 0 {
		t.Errorf("the generator produced no safe or no unsafe program: %v", c)
	}
}

// FuzzDifferential runs the differential check on programs generated from
// the fuzzer's seeds.
func FuzzDifferential(f *testing.F) {
	for i := range uint64(8) {
		f.Add(i, i*7+1)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		p := progen.Simple(rand.New(rand.NewPCG(a, b)))
		differential(t, &sb.Engine{}, p, 5*time.Second)
	})
}

// TestFreeLocations checks the SB search alone on programs whose
// processes enter their free locations (from which they never read again
// but through a fence or a locked operation) by each kind of transition, in
// a loop that otherwise goes back to a read: the catch-up of a pinned
// pointer after a read (in transit), after a write (its last flush after the
// write), after a local step and after a fence or a locked operation; and
// on programs that store in a loop before a fence or a locked operation
// and read after it, where the pointer is pinned up to that operation. Each
// program has a bug variant and a safe one; the explicit engine, exact for
// these programs (their stores are bounded), gives the truth.
func TestFreeLocations(t *testing.T) {
	const proc1 = `
process P1 {
  reg $s : [0:1] = 0
  locs A B C D
  init A
  A -> B : write y := 1
  B -> D : fence
  D -> C : read $s := x
}
`
	// P1 without its fence: it reads x right after its store.
	proc1Unfenced := strings.Replace(proc1, "B -> D : fence\n  D -> C", "B -> C", 1)
	for _, tc := range []struct {
		name, p0, bad, p1 string
	}{
		// P0 writes x := $r after reading y, or reads again.
		{"write", `
  L0 -> L1 : read $r := y
  L1 -> L0 : assume $r == 0
  L1 -> L2 : write x := $r`, "P1@C & P1.$s == 1", ""},
		{"write, no bug", `
  L0 -> L1 : read $r := y
  L1 -> L0 : assume $r == 0
  L1 -> L2 : write x := 0`, "P1@C & P1.$s == 1", ""},
		// P0 writes x := 1 first, then leaves its loop by a read.
		{"read", `
  L0 -> L1 : write x := 1
  L1 -> L0 : read $r := y
  L1 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", ""},
		{"read, no bug", `
  L0 -> L1 : write x := 1
  L1 -> L3 : fence
  L3 -> L0 : read $r := y
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", ""},
		// P0 writes x := 1, then leaves its loop by a local step.
		{"local", `
  L0 -> L1 : write x := 1
  L1 -> L3 : read $r := y
  L3 -> L0 : assume $r == 1
  L3 -> L2 : assume $r == 0`, "P0@L2 & P1@C & P1.$s == 0", ""},
		{"local, no bug", `
  L0 -> L1 : write x := 1
  L1 -> L4 : fence
  L4 -> L3 : read $r := y
  L3 -> L0 : assume $r == 1
  L3 -> L2 : assume $r == 0`, "P0@L2 & P1@C & P1.$s == 0", ""},
		// P0 leaves its loop by a fence or a locked operation.
		{"fence", `
  L0 -> L1 : write x := 1
  L1 -> L3 : read $r := y
  L3 -> L0 : assume $r == 1
  L3 -> L4 : assume $r == 0
  L4 -> L2 : fence`, "P0@L2 & P1@C & P1.$s == 0", ""},
		{"locked", `
  L0 -> L1 : read $r := y
  L1 -> L0 : assume $r == 0
  L1 -> L2 : locked { read $r := x; write x := 1 }`, "P1@C & P1.$s == 1", ""},
		// P0 stores x := 1 and x := 0 in a loop, its last store x := 1,
		// and leaves it by a fence, a locked operation or a local step
		// before it reads y: store buffering, with P1 fenced or not.
		{"stores before a fence, no bug", `
  L0 -> L1 : write x := 1
  L1 -> L0 : write x := 0
  L1 -> L3 : fence
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", ""},
		{"stores before a fence, P1 unfenced", `
  L0 -> L1 : write x := 1
  L1 -> L0 : write x := 0
  L1 -> L3 : fence
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", proc1Unfenced},
		{"stores before a locked operation, no bug", `
  L0 -> L1 : write x := 1
  L1 -> L0 : write x := 0
  L1 -> L3 : locked { read $r := x; write x := 1 }
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", ""},
		{"stores before a locked operation, P1 unfenced", `
  L0 -> L1 : write x := 1
  L1 -> L0 : write x := 0
  L1 -> L3 : locked { read $r := x; write x := 1 }
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", proc1Unfenced},
		{"stores before a local step", `
  L0 -> L1 : write x := 1
  L1 -> L0 : write x := 0
  L1 -> L3 : assume $r == 0
  L3 -> L2 : read $r := y`, "P0@L2 & P1@C & P0.$r == 0 && P1.$s == 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p1 := proc1
			if tc.p1 != "" {
				p1 = tc.p1
			}
			src := "program \"free\"\n\nvar x : [0:1] = 0\nvar y : [0:1] = 0\n\nprocess P0 {\n  reg $r : [0:1] = 0\n  locs L0 L1 L2 L3 L4\n  init L0" +
				tc.p0 + "\n}\n" + p1 + "\nbad \"bad\" : " + tc.bad + "\n"
			p, err := native.Parse("free.fm", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			truth, err := (&explicit.Engine{Bound: 4}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			got, err := (&sb.Engine{Backward: true, MaxConstraints: 100_000}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != truth.Status {
				t.Fatalf("SB search alone: %v; explicit: %v\n%s", got, truth, src)
			}
			if bug := !strings.HasSuffix(tc.name, "no bug"); (truth.Status == engines.Unsafe) != bug {
				t.Fatalf("explicit: %v, want bug=%v\n%s", truth, bug, src)
			}
		})
	}
}

// TestLockedStores checks the SB search alone on locked operations that
// store to several variables: their stores reach memory at once, as one
// message that differs from the one before it in every variable stored. A
// flush over it once changed one variable only, and the search called the
// first two programs safe.
func TestLockedStores(t *testing.T) {
	const writer = `
process P1 {
  locs A B
  init A
  A -> B : locked { write y := 1; write x := 1 }
}
`
	for _, tc := range []struct {
		name, p0, bad string
		want          engines.Status
	}{
		{"the second store seen", `
  L0 -> L1 : read $r := x`, "P0@L1 & P0.$r == 1", engines.Unsafe},
		{"both seen", `
  L0 -> L1 : read $r := x
  L1 -> L2 : read $s := y`, "P0@L2 & P0.$r == 1 && P0.$s == 1", engines.Unsafe},
		{"one without the other", `
  L0 -> L1 : read $r := x
  L1 -> L2 : read $s := y`, "P0@L2 & P0.$r == 1 && P0.$s == 0", engines.Safe},
		{"the other without the one", `
  L0 -> L1 : read $s := y
  L1 -> L2 : read $r := x`, "P0@L2 & P0.$r == 0 && P0.$s == 1", engines.Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "program \"locked\"\n\nvar x : [0:1] = 0\nvar y : [0:1] = 0\n\nprocess P0 {\n  reg $r : [0:1] = 0\n  reg $s : [0:1] = 0\n  locs L0 L1 L2\n  init L0" +
				tc.p0 + "\n}\n" + writer + "\nbad \"bad\" : " + tc.bad + "\n"
			p, err := native.Parse("locked.fm", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			truth, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if truth.Status != tc.want {
				t.Fatalf("explicit: %v, want %v\n%s", truth, tc.want, src)
			}
			for _, e := range []*sb.Engine{{Backward: true}, {Backward: true, NoPrune: true}} {
				got, err := e.Check(context.Background(), p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != tc.want {
					t.Errorf("SB search alone (noprune=%v): %v, want %v\n%s", e.NoPrune, got, tc.want, src)
				}
			}
		})
	}
}
