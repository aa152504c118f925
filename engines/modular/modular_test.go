package modular_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/modular"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/modelfile"
	"github.com/fencecheck/fencecheck/model/native"
)

var long = flag.Bool("long", false, "run the long soundness test (5000 programs per generator)")

// owned rewrites p so that every shared variable has one writer, as in the
// flag and ticket protocols the engine is for: a transition of a process
// that writes a variable another process owns is made to use one of its
// own variables instead, or to read the variable when it owns none.
func owned(rng *rand.Rand, p *model.Program) *model.Program {
	p = p.Clone()
	owner := make([]int, len(p.Vars))
	mine := make([][]int, len(p.Procs))
	for x := range p.Vars {
		owner[x] = rng.IntN(len(p.Procs))
		mine[owner[x]] = append(mine[owner[x]], x)
	}
	for i, q := range p.Procs {
		for ti := range q.Trans {
			op := &q.Trans[ti].Op
			var foreign []int
			walk(op, func(o *model.Op) {
				if o.Kind == model.Write && owner[o.Var] != i && !slices.Contains(foreign, o.Var) {
					foreign = append(foreign, o.Var)
				}
			})
			if len(foreign) == 0 {
				continue
			}
			if len(mine[i]) == 0 {
				*op = model.ReadOp(foreign[0], 0)
				continue
			}
			to := mine[i][rng.IntN(len(mine[i]))]
			walk(op, func(o *model.Op) {
				if (o.Kind == model.Read || o.Kind == model.Write) && slices.Contains(foreign, o.Var) {
					o.Var = to
				}
				o.Expr = renameVars(o.Expr, foreign, to)
			})
		}
	}
	return p
}

// renameVars returns e with the variables of from replaced by to.
func renameVars(e model.Expr, from []int, to int) model.Expr {
	switch e := e.(type) {
	case model.VarRef:
		if slices.Contains(from, e.Var) {
			return model.VarRef{Var: to}
		}
	case model.Unary:
		return model.Unary{Op: e.Op, X: renameVars(e.X, from, to)}
	case model.Binary:
		return model.Binary{Op: e.Op, X: renameVars(e.X, from, to), Y: renameVars(e.Y, from, to)}
	case model.Wrap:
		return model.Wrap{X: renameVars(e.X, from, to), Bits: e.Bits, Signed: e.Signed}
	}
	return e
}

func walk(o *model.Op, f func(*model.Op)) {
	f(o)
	for k := range o.Body {
		walk(&o.Body[k], f)
	}
}

// TestSound compares the engine with the explicit engine on generated
// programs, under SC as they are, under TSO with a fence after every plain
// write, and under TSO as they are (with their buffers, where fences and
// locked operations bound them): wherever the explicit engine reaches a bad state or a
// fault, the views must not prove the program safe. The programs come
// from the generators as they are (most variables have several writers)
// and rewritten so that each variable has one writer. The test also
// requires proofs of programs of three processes or more, which only a
// fixpoint that forgets processes can give cheaply.
func TestSound(t *testing.T) {
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
		{"simple-owned", func(rng *rand.Rand) *model.Program { return owned(rng, progen.Simple(rng)) }},
		{"symmetric-owned", func(rng *rand.Rand) *model.Program { return owned(rng, progen.Symmetric(rng)) }},
		{"race", func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		}},
	}
	for _, g := range gens {
		t.Run(g.name, func(t *testing.T) {
			counts := map[string]int{}
			rng := rand.New(rand.NewPCG(5, 17))
			for i := range n {
				p := g.gen(rng)
				m := model.SC
				switch i % 3 {
				case 1:
					p.Index()
					p = fence.Insert(p, fence.Candidates(p, fence.AfterWrites, nil))
					m = model.TSO
				case 2:
					m = model.TSO // with buffers, where fences bound them
				}
				want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
				if err != nil {
					t.Fatalf("program %d: explicit: %v", i, err)
				}
				got, err := (&modular.Engine{}).Check(context.Background(), p, m)
				if err != nil {
					var u *engines.Unsupported
					if errors.As(err, &u) {
						counts["unsupported"]++
						continue
					}
					t.Fatalf("program %d: modular: %v", i, err)
				}
				if got.Status == engines.Unsafe || (got.Status == engines.Safe && want.Status != engines.Safe) {
					t.Fatalf("program %d under %v: modular %v, explicit %v\n%s", i, m, got, want, native.Format(p))
				}
				if want.Bound != "" {
					t.Fatalf("program %d under %v: the explicit search is not exact (%v), but the buffers are bounded", i, m, want)
				}
				key := fmt.Sprintf("%v/%v", want.Status, got.Status)
				if m == model.TSO && !facts.LoadsDrained(p) {
					key += " tso"
				}
				if got.Status == engines.Safe && len(p.Procs) >= 3 {
					key += " (3+ processes)"
				}
				counts[key]++
			}
			t.Logf("explicit/modular: %v", counts)
			if counts["safe/safe (3+ processes)"] == 0 {
				t.Errorf("verdicts %v: no program of three processes or more was proven", counts)
			}
		})
	}
}

// TestScale proves the fenced bakeries of testdata/scale, whose state
// spaces the exact engines store state by state.
func TestScale(t *testing.T) {
	for _, name := range []string{"bakery4_fenced.rmm", "bakery4_fenced.fcm", "bakery5_fenced.rmm"} {
		t.Run(name, func(t *testing.T) {
			p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "scale", name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&modular.Engine{}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Safe {
				t.Fatalf("got %v, want safe", res)
			}
			t.Logf("%v", res)
		})
	}
}

// relay is safe, but only through three processes at once: P2 sees
// done = 1 only after P1 saw go = 1, which P0 wrote after data = 1. The
// bad state names P2 and data, owned by P0; the views of P0 and P2 forget
// P1, and let P2 read any value P1 gives done.
const relay = `
program "relay"
var data : [0:1] = 0
var go : [0:1] = 0
var done : [0:1] = 0
process P0 {
  L0 -> L1 : write data := 1
  L1 -> L2 : write go := 1
}
process P1 {
  L0 -> L1 : read go == 1
  L1 -> L2 : write done := 1
}
process P2 {
  L0 -> L1 : read done == 1
}
bad "stale data" : P2@L1 && data == 0
`

// TestForgets checks that what the views forget gives an inconclusive
// answer, not a wrong one, and names what the views reached.
func TestForgets(t *testing.T) {
	p, err := modelfile.Parse("relay.fcm", []byte(relay))
	if err != nil {
		t.Fatal(err)
	}
	want, err := (&explicit.Engine{}).Check(context.Background(), p, model.SC)
	if err != nil || want.Status != engines.Safe {
		t.Fatalf("explicit: %v, %v; want safe", want, err)
	}
	got, err := (&modular.Engine{}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != engines.Inconclusive || !strings.Contains(got.Reason, "views of 2 processes") {
		t.Fatalf("got %v, want inconclusive about the views of 2 processes", got)
	}
}

// TestBudgets: the view budget, the work meter and the context end the
// search with an inconclusive answer naming the bound.
func TestBudgets(t *testing.T) {
	p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "scale", "bakery4_fenced.rmm"))
	if err != nil {
		t.Fatal(err)
	}
	meterCtx := engines.WithMeter(context.Background(), engines.NewMeter(1000))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		eng    *modular.Engine
		reason string
	}{
		{"views", context.Background(), &modular.Engine{MaxViews: 1000}, "view budget of 1000"},
		{"work", meterCtx, &modular.Engine{}, "work bound"},
		{"canceled", canceled, &modular.Engine{}, "canceled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.eng.Check(c.ctx, p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Inconclusive || !strings.Contains(res.Reason, c.reason) {
				t.Fatalf("got %v, want inconclusive: %s", res, c.reason)
			}
		})
	}
}

// TestPassing: the views a process's local steps pass without storing
// must not hide a bad state. A bad state that names a location stops the
// steps there, and so does a location where no step is enabled.
func TestPassing(t *testing.T) {
	for _, tc := range []struct {
		name, src string
	}{
		{"bad location on a local path", `
program "pass"
var x : [0:1] = 0
process P0 {
  reg $r : [0:1] = 0
  L0 -> L1 : write x := 1
  L1 -> L2 : $r := 1
  L2 -> L3 : $r := 0
}
process P1 {
  L0 -> L1 : nop
}
process P2 {
  L0 -> L1 : nop
}
bad "passing" : P0@L2
`},
		{"stuck at a guard", `
program "stuck"
var x : [0:1] = 0
process P0 {
  reg $r : [0:1] = 0
  L0 -> L1 : write x := 1
  L1 -> L2 : assume $r == 1
}
process P1 {
  reg $s : [0:1] = 0
  L0 -> L1 : read $s := x
  L1 -> L2 : assume $s == 1
}
process P2 {
  L0 -> L1 : nop
}
bad "seen" : P1@L2 & P2@L1
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := modelfile.Parse(tc.name+".fcm", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&modular.Engine{}).Check(context.Background(), p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status == engines.Safe {
				t.Fatalf("%v, but a bad state is reachable", res)
			}
		})
	}
}

// FuzzSound decodes a seed for the program generators from its input and
// checks, as TestSound does for a fixed sequence, that the engine proves
// no program safe that the explicit engine finds a bad state or a fault
// in.
//
//	go test ./engines/modular -run '^$' -fuzz FuzzSound -fuzztime 10m
func FuzzSound(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 42} {
		f.Add(seed, uint8(0))
	}
	gens := []func(*rand.Rand) *model.Program{
		progen.Simple,
		progen.Symmetric,
		func(rng *rand.Rand) *model.Program { return owned(rng, progen.Simple(rng)) },
		func(rng *rand.Rand) *model.Program { return owned(rng, progen.Symmetric(rng)) },
		func(rng *rand.Rand) *model.Program {
			return progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true})
		},
	}
	f.Fuzz(func(t *testing.T, seed uint64, kind uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(kind)))
		p := gens[int(kind&0x7f)%len(gens)](rng)
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
		got, err := (&modular.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			var u *engines.Unsupported
			if errors.As(err, &u) {
				t.Skip(err)
			}
			t.Fatalf("modular: %v", err)
		}
		if got.Status == engines.Unsafe || (got.Status == engines.Safe && want.Status == engines.Unsafe) {
			t.Fatalf("under %v: modular %v, explicit %v\n%s", m, got, want, native.Format(p))
		}
	})
}

// TestWideInitial: initial values '*' of a wide domain end the search with
// the bound they exceed, without enumerating them.
func TestWideInitial(t *testing.T) {
	p, err := modelfile.Parse("wide.fcm", []byte(`
program "wide"
var x : [0:4611686018427387904] = *
process P0 {
  reg $r : [0:1] = 0
  L0 -> L1 : read $r := x
}
process P1 {
  L0 -> L1 : nop
}
process P2 {
  L0 -> L1 : nop
}
bad "seen" : P0@L1 & P1@L1 & P0.$r == 1
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&modular.Engine{}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "initial states") {
		t.Fatalf("got %v, want inconclusive about the initial states", res)
	}
}
