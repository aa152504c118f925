package coherence_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/coherence"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

// compare checks the coherence engine's answer got against the explicit
// engine's want (bounded buffers under TSO) on one program: a safe answer
// is a proof, so explicit must find no bug where it says safe; an unsafe
// one carries a replayed trace, so explicit must not prove the program.
func compare(t *testing.T, what string, got, want *engines.Result) {
	t.Helper()
	switch {
	case got.Status == engines.Safe && want.Status == engines.Unsafe:
		t.Errorf("%s: coherence proves it safe, explicit finds a bug:\n%v", what, want.Trace.Steps)
	case got.Status == engines.Unsafe && want.Status == engines.Safe && want.Bound == "":
		t.Errorf("%s: coherence finds a bug, explicit proves it safe", what)
	}
}

// TestDifferential compares the engine with the explicit engine (under
// TSO and PSO with bounded buffers), and under TSO with the single-buffer engine (exact) where its answer is
// conclusive, on generated programs, for every abstraction alone and for
// the default refinement.
func TestDifferential(t *testing.T) {
	n := longtest.Size(30, 150)
	gens := []struct {
		name string
		gen  func(*rand.Rand) *model.Program
	}{
		{"simple", progen.Simple},
		{"symmetric", progen.Symmetric},
		{"race", func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		}},
	}
	variants := []*coherence.Engine{
		{}, // Set, refined to FD_1 and FD_2
		{Abstraction: coherence.Abstraction{Kind: coherence.Set}, NoRefine: true},
		{Abstraction: coherence.Abstraction{Kind: coherence.FD, K: 0}, NoRefine: true},
		{Abstraction: coherence.Abstraction{Kind: coherence.FD, K: 1}, NoRefine: true},
		{Abstraction: coherence.Abstraction{Kind: coherence.PD, K: 0}, NoRefine: true},
		{Abstraction: coherence.Abstraction{Kind: coherence.PD, K: 1}, NoRefine: true},
	}
	for _, g := range gens {
		t.Run(g.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 33))
			counts := map[string]int{}
			for i := range n {
				p := g.gen(rng)
				m := []model.Model{model.TSO, model.PSO, model.TSO, model.PSO, model.SC}[i%5]
				ctx := context.Background()
				want, err := (&explicit.Engine{MaxStates: 300_000}).Check(ctx, p, m)
				if err != nil {
					t.Fatalf("program %d: explicit: %v", i, err)
				}
				var exact *engines.Result
				if m == model.TSO {
					if exact, err = (&sb.Engine{}).Check(ctx, p, m); err != nil {
						t.Fatalf("program %d: sb: %v", i, err)
					}
				}
				for vi, e := range variants {
					got, err := e.Check(ctx, p, m)
					if err != nil {
						t.Fatalf("program %d, variant %d: %v", i, vi, err)
					}
					what := g.name + " program " + strconv.Itoa(i) + " under " + m.String() + " with " + e.Abstraction.String()
					compare(t, what, got, want)
					if m == model.SC && got.Status != want.Status {
						t.Errorf("%s: %v, explicit %v (SC has no buffers to abstract)", what, got, want)
					}
					if exact != nil && got.Status != engines.Inconclusive && exact.Status != engines.Inconclusive && got.Status != exact.Status {
						t.Errorf("%s: %v, sb %v", what, got, exact)
					}
					if vi == 0 {
						counts[got.Status.String()]++
					}
				}
			}
			t.Logf("refined answers: %v", counts)
			if counts["safe"] == 0 || counts["unsafe"] == 0 {
				t.Errorf("answers %v: the generator no longer covers both", counts)
			}
		})
	}
}

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

// TestLitmus checks the tests of the litmus corpus under TSO and SC,
// where every conclusive answer must be the corpus's verdict, and under
// PSO, where it must be the explicit engine's (exact on these loop-free
// programs); at least nine answers in ten must be conclusive. The quick
// run takes every sixth test, within 100,000 abstract states a check.
func TestLitmus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	// A budget in the long run too: 6.SB under PSO alone runs to millions
	// of states (the answers it leaves inconclusive are logged, and at
	// most a tenth may be).
	step, budget, psoBudget := 1, int64(1_000_000), int64(2_000_000)
	if longtest.Quick() {
		step, budget, psoBudget = 11, 100_000, 200_000
	}
	conclusive, total := 0, 0
	for k := 0; k < len(tests); k += step {
		lt := tests[k]
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		ctx := context.Background()
		pso, err := (&explicit.Engine{MaxStates: psoBudget}).Check(ctx, p, model.PSO)
		if err != nil {
			t.Fatalf("%s: explicit under PSO: %v", lt.Name, err)
		}
		psoWant := "forbidden"
		if pso.Status == engines.Unsafe {
			psoWant = "allowed"
		}
		cases := []struct {
			m    model.Model
			want string
		}{{model.TSO, lt.TSO}, {model.SC, lt.SC}}
		if pso.Status != engines.Inconclusive {
			cases = append(cases, struct {
				m    model.Model
				want string
			}{model.PSO, psoWant})
		}
		for _, c := range cases {
			total++
			res, err := (&coherence.Engine{MaxStates: budget}).Check(ctx, p, c.m)
			if err != nil {
				t.Fatalf("%s under %v: %v", lt.Name, c.m, err)
			}
			got := "forbidden"
			switch res.Status {
			case engines.Inconclusive:
				t.Logf("%s under %v: %s", lt.Name, c.m, res.Reason)
				continue
			case engines.Unsafe:
				got = "allowed"
			}
			conclusive++
			if got != c.want {
				t.Errorf("%s under %v: %s, want %s", lt.Name, c.m, got, c.want)
			}
		}
	}
	t.Logf("%d of %d answers conclusive", conclusive, total)
	if conclusive < total*9/10 {
		t.Errorf("only %d of %d answers conclusive", conclusive, total)
	}
}
