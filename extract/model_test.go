package extract_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

func procNames(p *model.Program) []string {
	var out []string
	for _, q := range p.Procs {
		out = append(out, q.Name)
	}
	return out
}

func varDomains(p *model.Program) map[string]string {
	out := map[string]string{}
	for _, v := range p.Vars {
		out[v.Name] = v.Dom.String()
	}
	return out
}

// TestNames checks the naming conventions the analyzer's messages rely on.
func TestNames(t *testing.T) {
	tests := []struct {
		pkg, sys string
		procs    []string
		vars     map[string]string
		bad      []string
	}{
		{"sb", "storeBuffering", []string{"go@10", "go@11", "main"},
			map[string]string{"x": "[0:1]", "y": "[0:1]", "r0": "[0:1]", "r1": "[0:1]", "wg": "[0:2]"},
			[]string{`panic("both loads saw 0")`, "deadlock"}},
		{"peterson", "petersonLock", []string{"worker(0)", "worker(1)", "main"},
			map[string]string{"l.flag[0]": "[0:1]", "l.flag[1]": "[0:1]", "l.turn": "[0:1]"},
			[]string{"mutual exclusion", "leak"}},
		{"mp", "messagePassing", []string{"go@28", "receive", "main"},
			map[string]string{"m.data": "[0:42]", "m.ready": "[0:1]", "wg": "[0:1]"},
			[]string{`panic("stale data")`, "deadlock", "leak"}},
		{"misc", "dynamicIndex", []string{"go@25", "go@30", "main"},
			map[string]string{"r.head": "[0:2]", "r.slot[0]": "[0:2]", "r.slot[1]": "[0:2]", "r.slot[2]": "[0:2]"},
			[]string{"index out of range", `panic("slot 2 written first")`}},
		{"misc", "overflow", []string{"go@45(i=0)", "go@45(i=1)", "main"},
			map[string]string{"c.n": "[0:1]"}, nil},
		{"misc", "unbounded", []string{"go@52", "main"},
			map[string]string{"n": "int"}, nil},
		{"misc", "typedAtomics", []string{"go@83", "go@84", "main"},
			map[string]string{"t.mu": "[0:1]", "t.val": "[0:2]", "t.n": "[0:15]", "t.u": "[2:2]", "wg": "[0:2]"}, []string{"deadlock", "leak"}},
		{"misc", "loopSpawns", []string{"go@107(i=0)", "go@107(i=1)", "go@110(0)", "go@110(1)", "main"},
			map[string]string{"hits[0]": "[0:2]", "hits[1]": "[0:2]", "i": "[0:0]", "i#2": "[1:1]"},
			[]string{"index out of range"}},
		// The write events bound the chains that build count: finite, if
		// wider than the 0..2 a run reaches.
		{"misc", "onceEach", []string{"go@125", "go@125#2", "main"},
			map[string]string{"count": "[0:9]", "mu": "[0:1]", "wg": "[0:2]"}, []string{`panic("lost update")`, "deadlock", "leak"}},
		{"misc", "eachInLoop", []string{"go@145", "main"},
			map[string]string{"count": "int", "mu": "[0:1]"}, []string{"leak"}},
		// The loop counters bound the writes (the retry of the failed
		// compare-and-swap writes nothing): finite.
		{"misc", "countedLoop", []string{"go@166", "go@166#2", "main"},
			map[string]string{"count": "[0:21]", "held": "[0:1]", "wg": "[0:2]"}, []string{`panic("lost update")`, "deadlock", "leak"}},
		{"misc", "resetLoop", []string{"go@188", "main"},
			map[string]string{"count": "int"}, nil},
		{"misc", "fenceDummy", []string{"go@94", "go@100", "main"},
			map[string]string{"p.a": "[0:1]", "p.b": "[0:2]", "dummy": "[0:6]", "ready": "[1:1]"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			s := system(t, tt.pkg, tt.sys)
			p := s.Program
			if got := procNames(p); !slices.Equal(got, tt.procs) {
				t.Errorf("processes = %v, want %v", got, tt.procs)
			}
			got := varDomains(p)
			if len(got) != len(tt.vars) {
				t.Errorf("variables = %v, want %v", got, tt.vars)
			}
			for name, dom := range tt.vars {
				if got[name] != dom {
					t.Errorf("variable %s: domain %q, want %q", name, got[name], dom)
				}
			}
			var bad []string
			for _, b := range p.Bad {
				if !slices.Contains(bad, b.Name) {
					bad = append(bad, b.Name)
				}
			}
			if !slices.Equal(bad, tt.bad) {
				t.Errorf("bad states = %q, want %q", bad, tt.bad)
			}
			if len(s.Spawns) != len(p.Procs) || len(s.Origins) != len(p.Procs) {
				t.Errorf("%d spawns, %d origin lists for %d processes", len(s.Spawns), len(s.Origins), len(p.Procs))
			}
			for i, q := range p.Procs {
				if len(s.Origins[i]) != len(q.Trans) {
					t.Errorf("%s: %d origins for %d transitions", q.Name, len(s.Origins[i]), len(q.Trans))
				}
			}
			// The text format round-trips what extract builds.
			if _, err := native.Parse(tt.sys+".fcm", native.Format(p)); err != nil {
				t.Errorf("native round trip: %v", err)
			}
		})
	}
}

// TestOrigins checks positions and origins of stores and loads.
func TestOrigins(t *testing.T) {
	s := system(t, "sb", "storeBuffering")
	q := s.Program.Procs[0]
	type want struct {
		kind   model.OpKind
		pos    string
		node   string
		target string
		typ    string
	}
	wants := []want{
		{model.Write, "testdata/src/sb/sb.go:10:14", "*ast.AssignStmt", "x", "int32"},
		{model.Read, "testdata/src/sb/sb.go:10:26", "*ast.Ident", "y", "int32"},
		{model.Write, "testdata/src/sb/sb.go:10:21", "*ast.AssignStmt", "r0", "int32"},
		{model.Locked, "testdata/src/sb/sb.go:10:29", "*ast.CallExpr", "wg", "sync.WaitGroup"},
	}
	if len(q.Trans) != len(wants) {
		t.Fatalf("%d transitions, want %d:\n%s", len(q.Trans), len(wants), native.Format(s.Program))
	}
	for i, w := range wants {
		tr, o := q.Trans[i], s.Origins[0][i]
		if tr.Op.Kind != w.kind || tr.Pos.String() != w.pos {
			t.Errorf("transition %d: %v at %v, want %v at %s", i, tr.Op.Kind, tr.Pos, w.kind, w.pos)
		}
		if got := typeName(o.Node); got != w.node {
			t.Errorf("transition %d: node %s, want %s", i, got, w.node)
		}
		if o.Target == nil || types.ExprString(o.Target) != w.target {
			t.Errorf("transition %d: target %v, want %s", i, o.Target, w.target)
		}
		if o.Type == nil || o.Type.String() != w.typ {
			t.Errorf("transition %d: type %v, want %s", i, o.Type, w.typ)
		}
	}
}

// TestTargets checks that the target of every memory access is the whole
// expression naming the location, as written, field selectors included.
func TestTargets(t *testing.T) {
	tests := []struct {
		pkg, sys string
		proc     int
		want     []string // the targets of the process's accesses, in order
	}{
		{"mp", "messagePassing", 0, []string{"m.data", "m.ready", "wg"}},
		{"mp", "messagePassing", 1, []string{"m.ready", "m.data"}},
		{"dekker", "dekker", 0, []string{"l.flag[me]", "l.flag[other]", "l.cs", "l.flag[me]"}},
		{"misc", "fenceDummy", 0, []string{"p.a", "dummy", "ready", "p.b"}},
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			s := system(t, tt.pkg, tt.sys)
			var got []string
			for ti, o := range s.Origins[tt.proc] {
				if o.Target == nil {
					continue
				}
				got = append(got, types.ExprString(o.Target))
				if k := s.Program.Procs[tt.proc].Trans[ti].Op.Kind; k == model.Nop || k == model.Assign || k == model.Guard {
					t.Errorf("transition %d (%v) has target %s", ti, k, got[len(got)-1])
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("targets %q, want %q:\n%s", got, tt.want, native.Format(s.Program))
			}
		})
	}
}

func typeName(n ast.Node) string { return fmt.Sprintf("%T", n) }

// TestNoFence checks that a //fencecheck:nofence statement names the
// location after its store.
func TestNoFence(t *testing.T) {
	s := system(t, "misc", "fenceDummy")
	if len(s.NoFence) != 1 {
		t.Fatalf("NoFence = %v, want one place", s.NoFence)
	}
	pl := s.NoFence[0]
	q := s.Program.Procs[pl.Proc]
	found := false
	for _, tr := range q.Trans {
		if tr.Op.Kind == model.Write && s.Program.Vars[tr.Op.Var].Name == "p.a" && tr.To == pl.Loc {
			found = true
		}
	}
	if !found {
		t.Errorf("NoFence %v is not after the store to p.a:\n%s", pl, native.Format(s.Program))
	}
}

// TestFaults checks that leaving a //fencecheck:range domain is a fault,
// found under SC.
func TestFaults(t *testing.T) {
	s := system(t, "misc", "overflow")
	res, err := (&explicit.Engine{}).Check(context.Background(), s.Program, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Unsafe {
		t.Fatalf("overflow: %v, want unsafe", res)
	}
	states, err := s.Program.Replay(res.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if last := states[len(states)-1]; last.Fault == nil || !strings.Contains(last.Fault.Msg, "outside [0:1]") {
		t.Errorf("final state %+v is not the range fault", last.Fault)
	}
	// A dynamic index within its declared range: no fault, no panic.
	s = system(t, "misc", "dynamicIndex")
	for _, m := range []model.Model{model.SC, model.TSO} {
		res, err := (&explicit.Engine{Bound: 2}).Check(context.Background(), s.Program, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != engines.Safe {
			t.Errorf("dynamicIndex under %v: %v, want safe", m, res)
		}
	}
	if s := system(t, "misc", "unbounded"); s.Program.Finite() {
		t.Errorf("unbounded counter has a finite model:\n%s", native.Format(s.Program))
	}
}
