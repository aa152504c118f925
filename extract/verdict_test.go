package extract_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// system lowers the system called name of testdata package pkg, failing the
// test on any diagnostic.
func system(tb testing.TB, pkg, name string) *extract.System {
	tb.Helper()
	l := load(tb, pkg)
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		tb.Errorf("%s: %s", l.fset.Position(d.Pos), d.Message)
	}
	for _, s := range systems {
		if s.Name == name {
			if err := s.Program.Validate(); err != nil {
				tb.Fatalf("%s: invalid program: %v", name, err)
			}
			return s
		}
	}
	tb.Fatalf("no system %s in %s", name, pkg)
	return nil
}

// Shorthands for the verdicts in the tables of verdict tests.
const (
	S = engines.Safe
	U = engines.Unsafe
)

// verdictCase is a system of a testdata package and its verdicts under
// x86-TSO and SC.
type verdictCase struct {
	name    string
	tso, sc engines.Status
}

// testVerdicts checks, in a subtest per case, the verdicts of the systems
// of testdata package pkg against what x86-TSO and SC allow for the Go
// code, with the explicit engine at bound 4. A system whose lowering
// fails is not checked further.
func testVerdicts(t *testing.T, pkg string, tests []verdictCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, pkg, tt.name)
			if t.Failed() {
				return
			}
			checkVerdicts(t, s.Program, 4, tt.tso, tt.sc)
		})
	}
}

// checkVerdicts runs the explicit engine with the given buffer bound on p
// under TSO and SC and reports a verdict other than tso or sc, with the
// program and the trace of the wrong verdict. Every trace must replay.
func checkVerdicts(t *testing.T, p *model.Program, bound int, tso, sc engines.Status) {
	t.Helper()
	for _, m := range []struct {
		m    model.Model
		want engines.Status
	}{{model.TSO, tso}, {model.SC, sc}} {
		eng := &explicit.Engine{Bound: bound}
		res, err := eng.Check(context.Background(), p, m.m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != m.want {
			t.Errorf("%v: got %v, want %v\n%s", m.m, res, m.want, native.Format(p))
			if res.Trace != nil {
				states, _ := p.Replay(res.Trace)
				t.Log(p.FormatTrace(res.Trace, states))
			}
		}
		if res.Trace != nil {
			if _, err := p.Replay(res.Trace); err != nil {
				t.Errorf("%v: trace does not replay: %v", m.m, err)
			}
		}
	}
}

// TestVerdicts runs the explicit engine on lowered systems: the Go path from
// source to verdict.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		pkg, name string
		tso, sc   engines.Status
	}{
		{"sb", "storeBuffering", U, S},
		{"mp", "messagePassing", S, S},
		{"dekker", "dekker", U, S},
		{"dekkeratomic", "dekker", S, S},
		{"peterson", "petersonLock", U, S},
		{"spinlock", "spinLock", S, S},
		{"spinlock", "typedSpinLock", S, S},
		{"checkset", "checkThenSet", U, U},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.name, func(t *testing.T) {
			s := system(t, tt.pkg, tt.name)
			if !s.Program.Finite() {
				t.Fatalf("not finite:\n%s", native.Format(s.Program))
			}
			checkVerdicts(t, s.Program, 3, tt.tso, tt.sc)
		})
	}
}
