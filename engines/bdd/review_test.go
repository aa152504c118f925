package bdd_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bdd"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

func parse(t *testing.T, src string) *model.Program {
	t.Helper()
	p, err := native.Parse("t.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEdgeCases are programs that once went wrong: each must get the
// explicit engine's verdict.
func TestEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name, src string
	}{
		{"one process twice in a bad state", `
program "dup"
var x : [0:1] = 0
process P0 {
  locs L0 L1 L2 L3
  L0 -> L1 : nop
  L1 -> L2 : nop
  L2 -> L3 : nop
}
bad : P0@L1 & P0@L2
`},
		{"a register assigned in a locked body before it is read", `
program "locked"
var x : [0:10] = 0
process P {
  reg $r : [0:100000] = 0
  locs L0 L1
  L0 -> L1 : locked { $r := 5; write x := $r }
}
bad : P@L1 & x == 5
`},
		{"a long run to the bad state", `
program "cnt"
process P0 {
  reg $c : [0:3000] = 0
  locs L0 L1 L2
  L0 -> L1 : assume $c < 3000
  L1 -> L0 : $c := $c + 1
  L0 -> L2 : assume $c == 3000
}
bad : P0@L2
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, tc.src)
			want, err := (&explicit.Engine{}).Check(context.Background(), p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			got, err := (&bdd.Engine{}).Check(ctx, p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != want.Status {
				t.Fatalf("bdd %v, explicit %v", got, want)
			}
		})
	}
}

// TestBudgets checks that a node budget bounds the nodes live, not the
// garbage (6000 nodes decide a program whose search creates many more),
// that the work meter counts every step, and that an inconclusive answer
// reports the states reached.
func TestBudgets(t *testing.T) {
	p := parse(t, `
program "count"
var x : [0:20] = 0
process P {
  reg $r : [0:20] = 0
  locs L0 L1 L2
  L0 -> L1 : read $r := x
  L1 -> L2 : assume $r < 20
  L2 -> L0 : write x := $r + 1
  L1 -> L0 : assume $r >= 20
}
process Q {
  reg $r : [0:20] = 0
  locs L0 L1 L2
  L0 -> L1 : read $r := x
  L1 -> L2 : assume $r < 20
  L2 -> L0 : write x := $r + 1
  L1 -> L0 : assume $r >= 20
}
bad : P@L2 & Q@L2 & P.$r == 20
`)
	if res, err := (&bdd.Engine{MaxNodes: 6000}).Check(context.Background(), p, model.SC); err != nil || res.Status != engines.Safe {
		t.Errorf("with 6000 nodes: %v, %v; want safe (the live diagrams need far fewer)", res, err)
	}
	// A search of a few hundred diagram steps is charged too.
	tiny := parse(t, `
program "tiny"
var x : [0:1] = 0
process P {
  locs L0 L1
  L0 -> L1 : write x := 1
}
bad : P@L1 & x == 0
`)
	ctx := engines.WithMeter(context.Background(), engines.NewMeter(1))
	res, err := (&bdd.Engine{}).Check(ctx, tiny, model.SC)
	if err != nil || res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "work") {
		t.Errorf("with 1 work unit: %v, %v; want inconclusive at the work bound", res, err)
	}
	res, err = (&bdd.Engine{MaxNodes: 3000}).Check(context.Background(), p, model.SC)
	if err != nil || res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "node budget") || res.Stats.States == 0 {
		t.Errorf("with 3000 nodes: %v, %v; want inconclusive at the node budget, with the states reached so far", res, err)
	}
}
