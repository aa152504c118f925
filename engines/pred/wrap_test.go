package pred_test

import (
	"context"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
)

// TestWraps checks the predicate engine on wraps (Go's narrow integer
// types): its verdicts are those of the explicit engine on the same
// programs with finite domains, and its counterexamples replay with the
// wrapped values.
func TestWraps(t *testing.T) {
	requireZ3(t)
	for _, tc := range []struct {
		name, src string
		want      engines.Status
	}{
		{"underflow", `program "underflow"
process P {
  reg $r : D = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : $r := uint32($r - 1)
  L1 -> L2 : assume $r > 5
}
bad "big" : P@L2
`, engines.Unsafe},
		{"wraps", `program "wraps"
var x : D = 0
process P {
  reg $r : D = 0
  locs L0 L1 L2 L3 L4
  init L0
  L0 -> L1 : locked { read $r := x; write x := uint8(x + 100) }
  L1 -> L2 : locked { read $r := x; write x := uint8(x + 100) }
  L2 -> L3 : locked { read $r := x; write x := uint8(x + 100) }
  L3 -> L4 : locked { read $r := x; assume x == 44 }
}
bad "300 is 44" : P@L4
`, engines.Unsafe},
		{"lockstep", `program "lockstep"
var x : D = 250
var y : D = 250
process P {
  reg $a : D = 0
  reg $b : D = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : locked { read $a := x; write x := uint8(x + 3) }
  L1 -> L2 : locked { read $b := y; write y := uint8(y + 3) }
  L2 -> L0 : nop
  L2 -> L3 : assume uint8($a + 3) != uint8($b + 3)
}
bad "apart" : P@L3
`, engines.Safe},
		{"signed", `program "signed"
process P {
  reg $r : D = 120
  locs L0 L1 L2
  init L0
  L0 -> L1 : $r := int8($r + 10)
  L1 -> L2 : assume $r == -126
}
bad "wrapped" : P@L2
`, engines.Unsafe},
	} {
		for _, m := range []model.Model{model.SC, model.TSO} {
			t.Run(tc.name+"/"+m.String(), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				// The same program with finite domains, for the explicit engine.
				fin := parseDom(t, tc.name, tc.src, "[-128:4294967295]")
				er, err := (&explicit.Engine{}).Check(ctx, fin, m)
				if err != nil {
					t.Fatal(err)
				}
				p := parseDom(t, tc.name, tc.src, "int")
				r, err := (&pred.Engine{}).Check(ctx, p, m)
				if err != nil {
					t.Fatal(err)
				}
				if r.Status != tc.want || er.Status != tc.want {
					t.Fatalf("pred %v, explicit %v; want %v", r, er, tc.want)
				}
				if r.Trace != nil {
					if _, err := p.Replay(r.Trace); err != nil {
						t.Errorf("the counterexample does not replay: %v", err)
					}
				}
			})
		}
	}
}

// TestWrappedTicket checks the ticket lock with 32-bit counters, which wrap:
// correct, and proved (the counters are kept unreduced, lazy.go).
func TestWrappedTicket(t *testing.T) {
	requireZ3(t)
	longtest.Skip(t) // about 10 s of solver work
	for _, m := range []model.Model{model.SC, model.TSO} {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		r, err := (&pred.Engine{}).Check(ctx, load(t, "ticket32.fcm"), m)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != engines.Safe {
			t.Errorf("ticket32 under %v: %v, want safe", m, r)
		}
	}
}
