package sb_test

import (
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/modelfile"
	"github.com/fencecheck/fencecheck/model/native"
)

var (
	backwardPrograms = flag.Int("backward-programs", 2000, "generated programs of BenchmarkBackwardOnly/differential (the first ones of TestDifferential's sequence)")
	backwardNoPrune  = flag.Bool("backward-noprune", false, "BenchmarkBackwardOnly: also turn the pruning by the forward abstraction off")
	backwardTimeout  = flag.Duration("backward-timeout", time.Minute, "BenchmarkBackwardOnly: the time budget per program")
	backwardOnly     = flag.Int("backward-only", -1, "BenchmarkBackwardOnly/differential: run only the generated program of this index")
)

// backwardBudget is the constraint budget of the SB search alone in
// BenchmarkBackwardOnly.
const backwardBudget = 200_000

// table1Verdicts returns the TSO verdict of every program of testdata/table1
// by its paper result: a program that needs barriers or is wrong under SC
// reaches a bad state under TSO, one that needs none does not.
func table1Verdicts(t testing.TB) map[string]engines.Status {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "table1", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []struct {
		File      string `json:"file"`
		Fences    *int   `json:"paper_fences_per_proc"`
		Erroneous bool   `json:"paper_erroneous"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	want := map[string]engines.Status{}
	for _, e := range entries {
		switch {
		case e.Erroneous || (e.Fences != nil && *e.Fences > 0):
			want[e.File] = engines.Unsafe
		case e.Fences != nil:
			want[e.File] = engines.Safe
		}
	}
	return want
}

// backwardEngine is the SB search alone as the benchmark runs it.
func backwardEngine() *sb.Engine {
	return &sb.Engine{Backward: true, NoPrune: *backwardNoPrune, MaxConstraints: backwardBudget}
}

// checkBackward runs the SB search alone on p once and returns its result
// and CPU-independent wall time.
func checkBackward(b *testing.B, p *model.Program) (*engines.Result, time.Duration) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), *backwardTimeout)
	defer cancel()
	start := time.Now()
	res, err := backwardEngine().Check(ctx, p, model.TSO)
	if err != nil {
		b.Fatal(err)
	}
	return res, time.Since(start)
}

// lastSearch records the constraints of the last SB search.
var lastSearch struct{ count, pruned int64 }

func init() {
	sb.OnSearched(func(count, pruned int64) { lastSearch.count, lastSearch.pruned = count, pruned })
}

// BenchmarkBackwardOnly runs the SB search alone (Engine.Backward: the
// forward abstraction only prunes, the bounded search does not run) on
// every program of testdata/table1, whose TSO verdicts follow from the
// paper's results, and on the generated programs of TestDifferential
// (seed 3, 12; -backward-programs of them), whose verdicts the full engine
// gives. It fails when a program is not decided within backwardBudget
// constraints and -backward-timeout, or is decided wrongly; it reports the
// constraints and time per Table 1 program and, for the generated ones, the
// total, the largest and the slowest.
func BenchmarkBackwardOnly(b *testing.B) {
	want := table1Verdicts(b)
	files := make([]string, 0, len(want))
	for f := range want {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		b.Run("table1/"+f, func(b *testing.B) {
			p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "table1", f))
			if err != nil {
				b.Fatal(err)
			}
			var res *engines.Result
			var took time.Duration
			for b.Loop() {
				res, took = checkBackward(b, p)
			}
			b.ReportMetric(float64(lastSearch.count), "constraints")
			b.Logf("%s: %v, %d constraints (%d pruned), %d states of the forward abstraction, %v", f, res.Status,
				lastSearch.count, lastSearch.pruned, res.Stats.States-lastSearch.count, took.Round(time.Millisecond))
			if res.Status != want[f] {
				b.Errorf("%s: %v, want %v", f, res, want[f])
			}
		})
	}
	b.Run("differential", func(b *testing.B) {
		for b.Loop() {
			rng := rand.New(rand.NewPCG(3, 12))
			var total, most int64
			var slowest time.Duration
			decided, slow := 0, -1
			for i := range *backwardPrograms {
				p := progen.Simple(rng)
				if *backwardOnly >= 0 && i != *backwardOnly {
					continue
				}
				res, took := checkBackward(b, p)
				if *backwardOnly >= 0 {
					b.Logf("program %d: %v, %d constraints, %v", i, res.Status, lastSearch.count, took.Round(time.Millisecond))
				}
				total += lastSearch.count
				most = max(most, lastSearch.count)
				if took > slowest {
					slowest, slow = took, i
				}
				if res.Status == engines.Inconclusive {
					b.Errorf("program %d: %v", i, res)
					continue
				}
				// The full engine's answer, where it comes within three
				// times the time budget, cross-checks this one.
				ctx, cancel := context.WithTimeout(context.Background(), 3**backwardTimeout)
				full, err := (&sb.Engine{}).Check(ctx, p, model.TSO)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				if full.Status != engines.Inconclusive && full.Status != res.Status {
					b.Errorf("program %d: the SB search alone says %v, the full engine %v", i, res.Status, full.Status)
				}
				decided++
			}
			b.ReportMetric(float64(decided), "decided")
			b.ReportMetric(float64(most), "max-constraints")
			b.Logf("%d of %d programs decided; %d constraints in all, at most %d; slowest: program %d, %v",
				decided, *backwardPrograms, total, most, slow, slowest.Round(time.Millisecond))
		}
	})
}

// TestBackwardDifferential compares the SB search alone, pruned by the
// forward abstraction and unpruned, best first and breadth first, with
// exact answers on generated
// programs (progen.Simple, seed 7, 21): 40 in the normal run with a budget
// of 20,000 constraints, 1000 with -long and the budget of
// BenchmarkBackwardOnly. For a loop-free program the truth is the explicit
// engine's answer with unbounded buffers, which is exact; for a program
// with loops it is the full engine's answer (whose Safe answers come from
// the forward abstraction, a different proof), and a Safe answer of the SB
// search is also checked against the explicit engine with buffers bounded
// by 1..4. Every Unsafe answer has been replayed by Check. Inconclusive
// answers are counted (BenchmarkBackwardOnly measures how many).
func TestBackwardDifferential(t *testing.T) {
	programs, budget, timeout := longtest.Size(15, 40), int64(20_000), 3*time.Second
	if *long {
		programs, budget, timeout = 1000, backwardBudget, 20*time.Second
	}
	rng := rand.New(rand.NewPCG(7, 21))
	modes := []*sb.Engine{{Backward: true, MaxConstraints: budget}, {Backward: true, NoPrune: true, MaxConstraints: budget},
		{Backward: true, BreadthFirst: true, MaxConstraints: budget}}
	inconclusive := make([]int, len(modes))
	for i := range programs {
		p := progen.Simple(rng)
		var truth *engines.Result
		var err error
		if _, acyclic := facts.MaxWritesOnPath(p); acyclic {
			truth, err = (&explicit.Engine{MaxStates: 2_000_000}).Check(context.Background(), p, model.TSO)
			if err == nil && truth.Bound != "" {
				t.Fatalf("program %d: the explicit engine bounded a loop-free program: %v", i, truth)
			}
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			truth, err = (&sb.Engine{}).Check(ctx, p, model.TSO)
			cancel()
		}
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		for k, e := range modes {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			got, err := e.Check(ctx, p, model.TSO)
			cancel()
			if err != nil {
				t.Fatalf("program %d, noprune=%v breadth-first=%v: %v\n%s", i, e.NoPrune, e.BreadthFirst, err, native.Format(p))
			}
			switch {
			case got.Status == engines.Inconclusive:
				inconclusive[k]++
			case truth.Status != engines.Inconclusive && got.Status != truth.Status:
				t.Fatalf("program %d: the SB search alone (noprune=%v breadth-first=%v) says %v, the truth is %v\n%s", i, e.NoPrune, e.BreadthFirst, got.Status, truth.Status, native.Format(p))
			case got.Status == engines.Safe && explicitBug(t, p):
				t.Fatalf("program %d: the SB search alone (noprune=%v breadth-first=%v) says safe, the explicit engine finds a bug\n%s", i, e.NoPrune, e.BreadthFirst, native.Format(p))
			}
		}
	}
	t.Logf("%d programs; inconclusive (best first, unpruned, breadth first): %v", programs, inconclusive)
}

// TestBackwardFaultBesideBadState: the program's own bad state (P2@L3 and
// P1@L7) is unreachable, and its backward closure is large (P1 stores in a
// loop with no barrier), while P0's locked increment of v2 overflows after
// ten steps. The SB search alone queues the constraints of every bad state
// (the faults too) at once, so that the best-first order reaches the fault
// first; when the faults' constraints were queued only after the program's
// own bad state was saturated, it needed more than 200,000 constraints.
// (Generated program 574 of BenchmarkBackwardOnly.)
func TestBackwardFaultBesideBadState(t *testing.T) {
	p, err := native.Parse("fault-beside.fm", []byte(faultBesideBadState))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&sb.Engine{Backward: true, MaxConstraints: 50_000}).Check(context.Background(), p, model.TSO)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Unsafe {
		t.Fatalf("SB search alone: %v, want unsafe (P0's increment of v2 overflows)", res)
	}
}

const faultBesideBadState = `program "gen"

var v0 : [0:1] = 0
var v1 : [0:1] = 0
var v2 : [0:1] = 0

process P0 {
  reg $r : [0:1] = 0
  reg $s : [0:1] = 0
  locs L0 L1 L2 L3 L4 L5 L6 L7 L8
  init L0
  L0 -> L1 : write v1 := 0
  L1 -> L2 : fence
  L2 -> L3 : locked { read $r := v0; write v0 := 0 }
  L3 -> L4 : write v0 := 1
  L4 -> L0 : assume $s == 1
  L4 -> L5 : fence
  L5 -> L6 : locked { read $s := v2; write v2 := v2 + 1 }
  L6 -> L7 : locked { read $r := v2; write v2 := 0 }
  L7 -> L8 : write v0 := 0
}

process P1 {
  reg $r : [0:1] = 0
  reg $s : [0:1] = 0
  locs L0 L1 L2 L3 L4 L5 L6 L7
  init L0
  L0 -> L1 : write v2 := 1
  L1 -> L2 : read $r := v2
  L2 -> L3 : $r := 1 - $r
  L3 -> L4 : read $s := v0
  L4 -> L5 : write v1 := 0
  L5 -> L1 : assume $s == 0
  L5 -> L6 : write v0 := 0
  L6 -> L7 : $s := 1 - $s
}

process P2 {
  reg $r : [0:1] = 0
  reg $s : [0:1] = 0
  locs L0 L1 L2 L3 L4
  init L0
  L0 -> L1 : read $r := v1
  L1 -> L2 : write v0 := 1
  L2 -> L3 : read $r := v0
  L3 -> L4 : locked { read $s := v2; write v2 := 0 }
}

bad "bad" : P2@L3 & P1@L7 & P2.$r == 1 && P1.$r == 1
`
