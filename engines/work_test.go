package engines_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
)

func TestMeter(t *testing.T) {
	var none *engines.Meter
	if !none.States(1e9) || none.Out() || none.Remaining() != -1 {
		t.Errorf("a nil Meter counts or runs out")
	}
	m := engines.NewMeter(1000)
	if engines.MeterOf(engines.WithMeter(context.Background(), m)) != m || engines.MeterOf(context.Background()) != nil {
		t.Errorf("MeterOf does not return the context's Meter")
	}
	if !m.States(600) || m.Out() {
		t.Errorf("600 of 1000 units: out")
	}
	if m.SolverCalls(3) || !m.Out() {
		t.Errorf("600 units and 3 solver calls (%d units) of 1000: not out", 3*engines.SolverCallWork)
	}
	if got, want := m.Reason(), "work bound of 1,000 units reached after 600 states and 3 solver calls"; got != want {
		t.Errorf("Reason: %q, want %q", got, want)
	}

	parent := engines.NewMeter(1000)
	parent.States(400)
	a, b := parent.Fork(), parent.Fork()
	if a.Remaining() != 600 || b.Remaining() != 600 {
		t.Errorf("forks allow %d and %d units, want the 600 the parent has left", a.Remaining(), b.Remaining())
	}
	a.States(100)
	b.Cap(100)
	b.States(100)
	if b.Out() {
		t.Errorf("a fork capped at 100 units runs out at 100")
	}
	b.States(1)
	if !b.Out() {
		t.Errorf("a fork capped at 100 units goes on beyond them")
	}
	parent.Join(a)
	if units, states, _ := parent.Used(); units != 500 || states != 500 {
		t.Errorf("after joining a fork of 100 units: %d units, %d states, want 500", units, states)
	}
	unbounded := engines.NewMeter(0).Fork()
	unbounded.Cap(10)
	if unbounded.States(11); !unbounded.Out() {
		t.Errorf("the fork of a Meter without a limit cannot be capped")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 6000000: "6,000,000"} {
		if got := engines.Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSub: a sub-meter allows the lower of its units and what its parent
// has left, and its work reaches the parent through Join.
func TestSub(t *testing.T) {
	spent := engines.NewMeter(100)
	spent.States(80)
	for _, tc := range []struct {
		name   string
		parent *engines.Meter
		units  int64
		want   int64
	}{
		{"no parent", nil, 50, 50},
		{"unbounded parent", engines.NewMeter(0), 50, 50},
		{"parent with more left", engines.NewMeter(1000), 50, 50},
		{"parent with less left", spent, 50, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := tc.parent.Sub(tc.units)
			if got := sub.Remaining(); got != tc.want {
				t.Fatalf("Remaining = %d, want %d", got, tc.want)
			}
			sub.States(5)
			before := int64(0)
			if tc.parent != nil {
				before, _, _ = tc.parent.Used()
			}
			tc.parent.Join(sub)
			if tc.parent != nil {
				if after, _, _ := tc.parent.Used(); after != before+5 {
					t.Fatalf("parent used %d after Join, want %d", after, before+5)
				}
			}
		})
	}
}
