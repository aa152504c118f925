package bdd_test

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bdd"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

var long = flag.Bool("long", false, "run the long differential test (5000 programs per generator)")

// TestDifferential compares the bdd engine with the explicit engine, an
// independent search of the same semantics, on generated programs: under
// SC as they are, and under TSO with a fence after every plain write (where
// the engine searches under SC). The verdicts must agree; every Unsafe
// answer of the bdd engine has been replayed by Check, and its length is
// checked against the explicit engine's breadth-first one only for being
// a trace at all.
func TestDifferential(t *testing.T) {
	n := 400
	switch {
	case *long:
		n = 5000
	case longtest.Quick():
		n = 80
	}
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
	for _, g := range gens {
		t.Run(g.name, func(t *testing.T) {
			counts := map[engines.Status]int{}
			rng := rand.New(rand.NewPCG(11, 23))
			for i := range n {
				p := g.gen(rng)
				m := model.SC
				if i%2 == 1 {
					p.Index()
					p = fence.Insert(p, fence.Candidates(p, fence.AfterWrites, nil))
					m = model.TSO
				}
				want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
				if err != nil {
					t.Fatalf("program %d: explicit: %v", i, err)
				}
				got, err := (&bdd.Engine{}).Check(context.Background(), p, m)
				if err != nil {
					var u *engines.Unsupported
					if errors.As(err, &u) {
						continue
					}
					t.Fatalf("program %d: bdd: %v", i, err)
				}
				if got.Status != want.Status {
					t.Fatalf("program %d under %v: bdd %v, explicit %v", i, m, got, want)
				}
				if got.Status == engines.Unsafe && got.Trace.Model != m {
					t.Fatalf("program %d: the trace is under %v, want %v", i, got.Trace.Model, m)
				}
				counts[got.Status]++
			}
			t.Logf("verdicts: %v", counts)
			if counts[engines.Safe] == 0 || counts[engines.Unsafe] == 0 {
				t.Errorf("verdicts %v: the generator no longer covers both answers", counts)
			}
		})
	}
}

// FuzzDifferential decodes a seed for the program generators from its
// input and checks that the bdd engine and the explicit engine agree, as
// TestDifferential does for a fixed sequence.
//
//	go test ./engines/bdd -run '^$' -fuzz FuzzDifferential -fuzztime 10m
func FuzzDifferential(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 42} {
		f.Add(seed, uint8(0))
	}
	gens := []func(*rand.Rand) *model.Program{
		progen.Simple,
		progen.Symmetric,
		func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		},
	}
	f.Fuzz(func(t *testing.T, seed uint64, kind uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(kind)))
		p := gens[int(kind)%len(gens)](rng)
		m := model.SC
		if kind&0x80 != 0 {
			p.Index()
			p = fence.Insert(p, fence.Candidates(p, fence.AfterWrites, nil))
			m = model.TSO
		}
		want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			t.Skipf("explicit: %v", err)
		}
		got, err := (&bdd.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			var u *engines.Unsupported
			if errors.As(err, &u) {
				t.Skip(err)
			}
			t.Fatalf("bdd: %v", err)
		}
		if want.Status != engines.Inconclusive && got.Status != want.Status {
			t.Fatalf("under %v: bdd %v, explicit %v", m, got, want)
		}
	})
}
