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

// TestVerdicts runs the explicit engine on lowered systems: the Go path from
// source to verdict.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		pkg, name string
		tso, sc   engines.Status
	}{
		{"sb", "storeBuffering", engines.Unsafe, engines.Safe},
		{"mp", "messagePassing", engines.Safe, engines.Safe},
		{"dekker", "dekker", engines.Unsafe, engines.Safe},
		{"dekkeratomic", "dekker", engines.Safe, engines.Safe},
		{"peterson", "petersonLock", engines.Unsafe, engines.Safe},
		{"spinlock", "spinLock", engines.Safe, engines.Safe},
		{"spinlock", "typedSpinLock", engines.Safe, engines.Safe},
		{"checkset", "checkThenSet", engines.Unsafe, engines.Unsafe},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.name, func(t *testing.T) {
			s := system(t, tt.pkg, tt.name)
			if !s.Program.Finite() {
				t.Fatalf("not finite:\n%s", native.Format(s.Program))
			}
			for _, m := range []struct {
				m    model.Model
				want engines.Status
			}{{model.TSO, tt.tso}, {model.SC, tt.sc}} {
				eng := &explicit.Engine{Bound: 3}
				res, err := eng.Check(context.Background(), s.Program, m.m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != m.want {
					t.Errorf("%v: got %v, want %v\n%s", m.m, res, m.want, native.Format(s.Program))
					if res.Trace != nil {
						states, _ := s.Program.Replay(res.Trace)
						t.Log(s.Program.FormatTrace(res.Trace, states))
					}
				}
				if res.Trace != nil {
					if _, err := s.Program.Replay(res.Trace); err != nil {
						t.Errorf("%v: trace does not replay: %v", m.m, err)
					}
				}
			}
		})
	}
}
