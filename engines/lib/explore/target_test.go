package explore_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestTarget checks a search for states of the caller's choosing: it finds
// one where the predicate holds, with a trace that executes to it; it
// answers safe when none is reachable; and it asks the predicate of the
// states where a fault happened, which end no search by themselves.
func TestTarget(t *testing.T) {
	src := `program "target"
var x : [0:3] = 0
process P {
  reg $r : [0:3] = 0
  reg $f : [0:0] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : write x := $r + 1
  L2 -> L3 : assume $r == 1
  L3 -> L3 : $f := 1
}
process Q {
  reg $r : [0:3] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : write x := $r + 1
}
bad "P at L3" : P@L3
`
	p, err := native.Parse("target.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ends := func(st model.State) bool { return st.Locs[0] == 2 && st.Locs[1] == 2 }
	tests := []struct {
		name   string
		target func(model.State) bool
		want   engines.Status
	}{
		{"both ended, x = 2", func(st model.State) bool { return ends(st) && st.Mem[0] == 2 }, engines.Unsafe},
		{"both ended, x = 1 (a lost update)", func(st model.State) bool { return ends(st) && st.Mem[0] == 1 }, engines.Unsafe},
		{"x = 3", func(st model.State) bool { return st.Mem[0] == 3 }, engines.Safe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var faults atomic.Int32
			res, err := explore.Check(context.Background(), p, model.SC, explore.Options{Target: func(st model.State) bool {
				if st.Fault != nil {
					faults.Add(1)
					return false
				}
				return tc.target(st)
			}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("status %v, want %v", res.Status, tc.want)
			}
			if res.Status == engines.Unsafe {
				states, err := p.Execute(res.Trace)
				if err != nil {
					t.Fatal(err)
				}
				if last := states[len(states)-1]; !tc.target(last) {
					t.Errorf("the trace ends at %v, where the target does not hold", last.Locs)
				}
				return
			}
			// P reaches its bad location (where the target search goes on)
			// and faults there.
			if faults.Load() == 0 {
				t.Errorf("the target was never asked of a faulting state")
			}
		})
	}
}

// TestTargetStopsAtFaults checks that a search for a target does not go
// on from a faulting state: the target below is reached only after a
// fault. With two identical processes the search keeps its queue packed
// under symmetry reduction, where a faulting state's key is one byte
// longer than the others'.
func TestTargetStopsAtFaults(t *testing.T) {
	proc := func(name string) string {
		return `process ` + name + ` {
  reg $f : [0:0] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : $f := 1
  L1 -> L2 : write x := 1
}
`
	}
	for _, tc := range []struct {
		name  string
		procs []string
	}{
		{"one process", []string{"P"}},
		{"two interchangeable processes", []string{"P", "Q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "program \"faults\"\nvar x : [0:1] = 0\n"
			for _, n := range tc.procs {
				src += proc(n)
			}
			p, err := native.Parse("faults.fcm", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var faults atomic.Int32
			res, err := explore.Check(context.Background(), p, model.SC, explore.Options{Target: func(st model.State) bool {
				if st.Fault != nil {
					faults.Add(1)
					return false
				}
				return st.Mem[0] == 1
			}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Safe {
				t.Errorf("status %v, want %v: the search went on from a faulting state", res.Status, engines.Safe)
			}
			if faults.Load() == 0 {
				t.Errorf("no faulting state was asked about")
			}
		})
	}
}
