package zone_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/zone"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestUnboundedLocks runs programs of testdata/kabs under SC: the zones
// prove the bakery, whose tickets grow without bound, Peterson's lock,
// and Dijkstra's and Lamport's fast locks (these two only since local
// steps are taken in a row past passable locations, which joins fewer
// zones); they do not prove the ticket lock, whose proof needs the order
// of two goroutines' registers (kept apart by the order of every pair of
// values, rather than of the shared variables only, the zones prove it,
// but no longer finish the 3-goroutine bakery in a minute).
func TestUnboundedLocks(t *testing.T) {
	for _, tc := range []struct {
		file string
		want engines.Status
	}{
		{"bakery.rmm", engines.Safe},
		{"peterson.rmm", engines.Safe},
		{"dijkstra.rmm", engines.Safe},
		{"lamport_fast.rmm", engines.Safe},
		{"ticket_lock.rmm", engines.Inconclusive},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "kabs", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&zone.Engine{}).Check(context.Background(), p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("%v, want %v", res, tc.want)
			}
		})
	}
}

// TestSound checks the abstraction against the explicit engine on
// generated programs whose domains are all made unbounded, so that every
// value lives in the zones: a program with a run to a bad state (not a
// fault, which the unbounded program may lose) still has that run, and the
// zone engine must not call it safe.
func TestSound(t *testing.T) {
	n := 600
	if longtest.Quick() {
		n = 150
	}
	counts := map[string]int{}
	for _, gen := range []func(*rand.Rand) *model.Program{progen.Simple, progen.Symmetric} {
		rng := rand.New(rand.NewPCG(9, 4))
		for i := range n {
			p := gen(rng)
			want, err := (&explicit.Engine{}).Check(context.Background(), p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			u := p.Clone()
			unbound := func(d *model.Domain) { *d = model.Unbounded }
			for k := range u.Vars {
				unbound(&u.Vars[k].Dom)
			}
			for _, q := range u.Procs {
				for k := range q.Regs {
					unbound(&q.Regs[k].Dom)
				}
			}
			got, err := (&zone.Engine{}).Check(context.Background(), u, model.SC)
			if err != nil {
				counts["unsupported"]++
				continue
			}
			reachesBad := want.Status == engines.Unsafe && p.MatchBad(lastState(t, p, want.Trace)) >= 0
			if reachesBad && got.Status == engines.Safe {
				t.Fatalf("program %d: explicit reaches a bad state (%v), the zones say %v", i, want, got)
			}
			counts[want.Status.String()+"/"+got.Status.String()]++
		}
	}
	t.Logf("explicit/zone verdicts: %v", counts)
	if counts["safe/safe"] == 0 || counts["unsafe/inconclusive"] == 0 {
		t.Errorf("verdicts %v: the test no longer covers both answers", counts)
	}
}

func lastState(t *testing.T, p *model.Program, tr *model.Trace) model.State {
	states, err := p.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	return states[len(states)-1]
}

// TestPassing: the states the abstraction does not store, at passable
// locations, must not hide a bad state. A bad state that names a location
// stops the local steps there, and a location where a process may be
// stuck (a guard that no value of its register satisfies) is stored.
func TestPassing(t *testing.T) {
	for _, tc := range []struct {
		name, src string
	}{
		{"bad location on a local path", `
program "pass"
var x : int = 0
process P0 {
  reg $r : int = 0
  L0 -> L1 : write x := 1
  L1 -> L2 : $r := 1
  L2 -> L3 : $r := 0
}
bad "passing" : P0@L2
`},
		{"stuck at a guard", `
program "stuck"
var x : int = 0
process P0 {
  reg $r : [0:1] = 0
  L0 -> L1 : write x := 1
  L1 -> L2 : assume $r == 1
}
process P1 {
  reg $s : int = 0
  L0 -> L1 : read $s := x
  L1 -> L2 : assume $s == 1
}
bad "seen" : P1@L2
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := modelfile.Parse(tc.name+".fcm", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&zone.Engine{}).Check(context.Background(), p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status == engines.Safe {
				t.Fatalf("%v, but a bad state is reachable", res)
			}
		})
	}
}

// TestSettleBounded: 40 register-only branches in a row, each joining
// again, are passed in the local steps of one expansion (the states they
// pass are bounded by maxSettleStates, beyond which they are stored and
// joined) and the program, whose value read is unknown, is proven.
func TestSettleBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("program \"diamonds\"\nvar x : int = 0\nprocess P0 {\n  reg $a : int = 0\n  reg $b : int = 0\n  L0 -> L1 : read $a := x\n")
	const n = 40
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "  L%d -> T%d : assume $a > $b\n  L%d -> F%d : assume $a <= $b\n", k, k, k, k)
		fmt.Fprintf(&b, "  T%d -> L%d : $b := $b + 1\n  F%d -> L%d : $b := $b - 1\n", k, k+1, k, k+1)
	}
	fmt.Fprintf(&b, "  L%d -> L%d : write x := $b\n}\n", n+1, n+2)
	b.WriteString("process P1 {\n  reg $c : int = 0\n  L0 -> L1 : read $c := x\n}\n")
	// P2 counts x up without end: the value P0 reads is unknown, and both
	// branches of every diamond are open.
	b.WriteString("process P2 {\n  reg $n : int = 0\n  L0 -> L1 : $n := $n + 1\n  L1 -> L0 : write x := $n\n}\n")
	b.WriteString("bad \"far\" : P1@L1 & P1.$c < -1000\n")
	p, err := modelfile.Parse("diamonds.fcm", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := (&zone.Engine{}).Check(ctx, p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Safe {
		t.Fatalf("%v, want safe", res)
	}
}
