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

// TestDifferential compares the engine with the explicit engine, and
// under TSO with the single-buffer engine (exact) where its answer is
// conclusive, on generated programs, for every abstraction alone and for
// the default refinement.
func TestDifferential(t *testing.T) {
	n := longtest.Size(60, 600)
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
				m := model.TSO
				if i%5 == 4 {
					m = model.SC
				}
				ctx := context.Background()
				want, err := (&explicit.Engine{}).Check(ctx, p, m)
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

// TestLitmus checks every test of the litmus corpus under TSO and SC:
// every conclusive answer is the corpus's verdict, and at least nine in
// ten are conclusive.
func TestLitmus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	conclusive := 0
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		for _, c := range []struct {
			m    model.Model
			want string
		}{{model.TSO, lt.TSO}, {model.SC, lt.SC}} {
			res, err := (&coherence.Engine{}).Check(context.Background(), p, c.m)
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
	t.Logf("%d of %d answers conclusive", conclusive, 2*len(tests))
	if conclusive < 2*len(tests)*9/10 {
		t.Errorf("only %d of %d answers conclusive", conclusive, 2*len(tests))
	}
}
