package coi_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestReduce checks what the reduction removes from small programs, in the
// native format: the reduced program, printed, must equal want.
func TestReduce(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		stats           coi.Stats
	}{
		{
			name: "unobserved variable and irrelevant register",
			src: `
var x : [0:1] = 0
var junk : [0:3] = *
process P {
  reg $r : [0:1] = 0
  reg $v : [0:3] = *
  L0 -> L1 : write x := 1
  L1 -> L2 : write junk := $v
  L2 -> L3 : $v := ($v + 1) % 4
  L3 -> L4 : read $v := junk
  L4 -> L5 : read $r := x
}
bad : P@L5 & P.$r == 0
`,
			want: `
var x : [0:1] = 0
var junk : [0:3] = 0
process P {
  reg $r : [0:1] = 0
  reg $v : [0:3] = 0
  L0 -> L1 : write x := 1
  L1 -> L2 : nop
  L2 -> L3 : nop
  L3 -> L4 : nop
  L4 -> L5 : read $r := x
}
bad : P@L5 & P.$r == 0
`,
			stats: coi.Stats{UnobservedVars: 1, IrrelevantRegs: 1, Writes: 1, Assigns: 1, Reads: 1, FixedInits: 2},
		},
		{
			name: "faults are kept",
			src: `
var x : [0:1] = 0
var junk : [0:1] = 0
process P {
  reg $r : [0:1] = 0
  reg $v : [0:3] = 0
  L0 -> L1 : $v := $v + 1
  L1 -> L2 : write junk := $v
  L2 -> L3 : read $r := x
}
bad : P@L3 & P.$r == 1
`,
			want: `
var x : [0:1] = 0
var junk : [0:1] = 0
process P {
  reg $r : [0:1] = 0
  reg $v : [0:3] = 0
  L0 -> L1 : $v := $v + 1
  L1 -> L2 : write junk := $v
  L2 -> L3 : read $r := x
}
bad : P@L3 & P.$r == 1
`,
			stats: coi.Stats{UnobservedVars: 1},
		},
		{
			name: "guards, blocking reads and locked blocks",
			src: `
var x : [0:1] = 0
var y : [0:2] = 0
var junk : [0:1] = 0
process P {
  reg $f : [0:1] = 0
  reg $g : [0:1] = 0
  L0 -> L1 : read $f := x
  L1 -> L2 : assume $f == 1
  L2 -> L3 : read $g := y == 1
  L3 -> L4 : locked { read $g := junk; write junk := 1; write y := 2 }
  L4 -> L5 : locked { write junk := 0 }
}
process Q {
  L0 -> L1 : write x := 1
  L1 -> L2 : write junk := 1
}
process Noise {
  reg $n : int = 0
  L0 -> L0 : $n := $n + 1
  L0 -> L1 : write junk := 1
}
bad : P@L5
`,
			want: `
var x : [0:1] = 0
var y : [0:2] = 0
var junk : [0:1] = 0
process P {
  reg $f : [0:1] = 0
  reg $g : [0:1] = 0
  L0 -> L1 : read $f := x
  L1 -> L2 : assume $f == 1
  L2 -> L3 : read y == 1
  L3 -> L4 : locked { write y := 2 }
  L4 -> L5 : locked { }
}
process Q {
  L0 -> L1 : write x := 1
  L1 -> L2 : nop
}
process Noise {
  reg $n : int = 0
  locs L0 L1
}
bad : P@L5
`,
			stats: coi.Stats{FrozenProcs: 1, Transitions: 2, UnobservedVars: 1, IrrelevantRegs: 1, Writes: 3, Reads: 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := native.Parse("src.fcm", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			want, err := native.Parse("src.fcm", []byte(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			red, err := coi.Reduce(p)
			if err != nil {
				t.Fatal(err)
			}
			if got, w := string(native.Format(red.Prog)), string(native.Format(want)); got != w {
				t.Errorf("reduced program:\n%s\nwant:\n%s", got, w)
			}
			if red.Stats != tc.stats {
				t.Errorf("stats: %+v, want %+v", red.Stats, tc.stats)
			}
		})
	}
}

// TestScaleModels reduces the scale models: the writes of the logging
// loops and of the straight-line log are removed, and the reduced programs
// are decided where the originals were not. It logs what the reduction
// removes from each scale model.
func TestScaleModels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "scale", "*.fcm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scale models: %v", err)
	}
	for _, f := range files {
		p, err := modelfile.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		red, err := coi.Reduce(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", filepath.Base(f), red.Stats)
	}
	for _, tc := range []struct {
		file   string
		eng    engines.Engine
		writes int
		want   engines.Status
	}{
		{"writeloop.fcm", &sb.Engine{}, 2, engines.Safe},
		{"stores2000.fcm", &explicit.Engine{}, 2000, engines.Safe},
	} {
		p, err := modelfile.Load(filepath.Join("..", "..", "..", "testdata", "scale", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		red, err := coi.Reduce(p)
		if err != nil {
			t.Fatal(err)
		}
		if red.Stats.Writes != tc.writes {
			t.Errorf("%s: %v, want %d writes removed", tc.file, red.Stats, tc.writes)
		}
		res, err := (&coi.Engine{Inner: tc.eng}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.want || res.Bound != "" {
			t.Errorf("%s: %v, want %v", tc.file, res, tc.want)
		}
	}
}

// TestLiftFlushesRemovedStores checks the lifting of a trace through
// removed stores that sit in front of kept ones in a buffer, before a
// fence, and at the end of a run to a bad state on memory.
func TestLiftFlushesRemovedStores(t *testing.T) {
	src := `
var x : [0:1] = 0
var y : [0:1] = 0
var junk : [0:1] = 0
process P0 {
  reg $r : [0:1] = 0
  L0 -> L1 : write junk := 1
  L1 -> L2 : write x := 1
  L2 -> L3 : write junk := 0
  L3 -> L4 : read $r := y
  L4 -> L5 : write junk := 1
  L5 -> L6 : fence
  L6 -> L7 : write junk := 0
}
process P1 {
  reg $r : [0:1] = 0
  L0 -> L1 : write y := 1
  L1 -> L2 : write junk := 1
  L2 -> L3 : read $r := x
}
bad : P0@L7 & P1@L3 & P0.$r == 0 && P1.$r == 0
bad "memory" : P0@L7 & x == 1 && y == 0
`
	p, err := native.Parse("lift.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []int{0, 1} {
		q := p.Clone()
		q.Bad = q.Bad[bad : bad+1]
		for _, inner := range []engines.Engine{&explicit.Engine{}, &sb.Engine{}} {
			res, err := (&coi.Engine{Inner: inner}).Check(context.Background(), q, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Unsafe {
				t.Fatalf("bad state %d, %s: %v, want unsafe", bad, inner.Name(), res)
			}
			states, err := q.Replay(res.Trace)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(q.FormatTrace(res.Trace, states), "flush junk") {
				t.Errorf("bad state %d, %s: the lifted trace flushes no removed store:\n%s", bad, inner.Name(), q.FormatTrace(res.Trace, states))
			}
		}
	}
}
