package extract_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestResetDeadRegs checks where dead registers are reset, on small models.
func TestResetDeadRegs(t *testing.T) {
	tests := []struct {
		name  string
		model string
		want  []string // the transitions of process p after the reset, formatted
	}{
		{
			name: "locked block after the last use",
			model: `var x : [0:1] = 0
var y : [0:1] = 0
process p {
  reg $a : [0:1] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : read $a := x
  L1 -> L2 : locked { read y; write y := $a }
  L2 -> L3 : nop
}`,
			want: []string{"read $a := x", "locked { read y; write y := $a; $a := 0 }", "nop"},
		},
		{
			name: "nop after the last use",
			model: `var x : [0:1] = 0
var y : [0:1] = 0
process p {
  reg $a : [1:2] = 1
  reg $b : [0:1] = 0
  locs L0 L1 L2 L3 L4
  init L0
  L0 -> L1 : read $b := x
  L1 -> L2 : $a := $b + 1
  L2 -> L3 : write y := $a - 1
  L3 -> L4 : nop
}`,
			// $b dies at L2 but the assignment cannot reset it; $a (reset to its
			// initial value) dies at L3, and the nop resets it. $b stays.
			want: []string{"read $b := x", "$a := $b + 1", "write y := $a - 1", "$a := 1"},
		},
		{
			name: "a bad state reads a register at its location",
			model: `var x : [0:1] = 0
process p {
  reg $a : [0:1] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : read $a := x
  L1 -> L2 : nop
  L2 -> L3 : nop
}
bad : p@L2 && p.$a == 1`,
			want: []string{"read $a := x", "nop", "$a := 0"},
		},
		{
			name: "a bad state that places the process nowhere reads it everywhere",
			model: `var x : [0:1] = 0
process p {
  reg $a : [0:1] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $a := x
  L1 -> L2 : nop
}
process q {
  locs L0 L1
  init L0
  L0 -> L1 : nop
}
bad : q@L1 && p.$a == 1`,
			want: []string{"read $a := x", "nop"},
		},
		{
			name: "a register read again in a loop dies before",
			model: `var x : [0:3] = 0
process p {
  reg $a : [0:3] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $a := x
  L1 -> L0 : assume $a == 0
  L1 -> L2 : assume $a != 0
  L2 -> L0 : nop
}`,
			// $a is dead at L2 and at L0 (read again before any use).
			want: []string{"read $a := x", "assume $a == 0", "assume $a != 0", "$a := 0"},
		},
		{
			name: "a read whose value is never used keeps it no more",
			model: `var x : [0:1] = 0
process p {
  reg $a : [0:1] = 0
  reg $b : [0:0] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $a := x
  L1 -> L2 : read $b := x
}`,
			// $b's domain does not hold every value of x: the read can fault.
			want: []string{"read x", "read $b := x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := native.Parse(tt.name, []byte(tt.model))
			if err != nil {
				t.Fatal(err)
			}
			extract.ResetDeadRegs(p)
			if err := p.Validate(); err != nil {
				t.Fatalf("invalid after the reset: %v", err)
			}
			got := transOps(p, "p")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// transOps returns the operations of process proc's transitions as the
// native format writes them.
func transOps(p *model.Program, proc string) []string {
	var ops []string
	in := false
	for _, line := range strings.Split(string(native.Format(p)), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "process "):
			in = strings.Trim(strings.TrimPrefix(line, "process "), ` "{`) == proc
		case in && strings.Contains(line, " -> "):
			_, op, _ := strings.Cut(line, " : ")
			if i := strings.LastIndex(op, " @ "); i >= 0 {
				op = op[:i]
			}
			ops = append(ops, strings.TrimSpace(op))
		}
	}
	return ops
}

// TestResetDeadExact checks that resetting dead registers changes no
// verdict of the testdata systems and never adds states.
func TestResetDeadExact(t *testing.T) {
	pkgs := []string{"sb", "litmussb", "mp", "dekker", "dekkeratomic", "peterson", "spinlock", "checkset", "misc"}
	lower := func(pkg string, reset bool) []*extract.System {
		old := extract.SetResetDead(reset)
		defer extract.SetResetDead(old)
		l := load(t, pkg)
		systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
		for _, d := range diags {
			t.Errorf("%s: %s", l.fset.Position(d.Pos), d.Message)
		}
		return systems
	}
	reduced := false
	for _, pkg := range pkgs {
		with, without := lower(pkg, true), lower(pkg, false)
		if len(with) != len(without) {
			t.Fatalf("%s: %d systems with the reset, %d without", pkg, len(with), len(without))
		}
		for i := range with {
			s, s0 := with[i], without[i]
			if !s.Program.Finite() {
				continue
			}
			for _, m := range []model.Model{model.SC, model.TSO} {
				// The engine's own reset would hide the lowering's.
				eng := &explicit.Engine{Bound: 2, MaxStates: 200_000, KeepDead: true}
				res, err := eng.Check(context.Background(), s.Program, m)
				if err != nil {
					t.Fatal(err)
				}
				res0, err := eng.Check(context.Background(), s0.Program, m)
				if err != nil {
					t.Fatal(err)
				}
				if res0.Status == engines.Inconclusive {
					continue
				}
				if res.Status != res0.Status {
					t.Errorf("%s/%s under %v: %v with the reset, %v without\n%s", pkg, s.Name, m, res, res0, native.Format(s.Program))
				}
				if res.Status == engines.Safe && res.Stats.States < res0.Stats.States {
					reduced = true
				}
				if res.Status == engines.Safe && res.Stats.States > res0.Stats.States {
					t.Errorf("%s/%s under %v: %d states with the reset, %d without", pkg, s.Name, m, res.Stats.States, res0.Stats.States)
				}
				if res.Trace != nil {
					if _, err := s.Program.Replay(res.Trace); err != nil {
						t.Errorf("%s/%s under %v: the trace does not replay: %v", pkg, s.Name, m, err)
					}
				}
			}
		}
	}
	if !reduced {
		t.Error("the reset removed no state from any safe system")
	}
}
