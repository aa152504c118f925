package extract_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestCalls checks the verdicts of systems that use defer, RWMutex, Once,
// calls into other packages, goroutines started by a method, generic code
// and goroutines that start goroutines, against what Go allows (each
// system's comment in testdata/src/calls gives the reasoning).
func TestCalls(t *testing.T) {
	const (
		S = engines.Safe
		U = engines.Unsafe
	)
	tests := []struct {
		name    string
		tso, sc engines.Status
	}{
		{"deferUnlock", S, S},
		{"unlockEarly", U, U},
		{"deferOrder", S, S},
		{"deferArgs", S, S},
		{"conditionalDefer", S, S},
		{"conditionalNoLock", U, U},
		{"deferInMain", S, S},
		{"rwMutex", S, S},
		{"rwMutexWriteUnderRLock", U, U},
		{"rUnlockUnlocked", U, U},
		{"onceInit", S, S},
		{"handOnce", U, U},
		{"pureCalls", S, S},
		{"errorResult", U, U},
		{"fatal", U, U},
		{"exitZero", S, S},
		{"wrapper", S, S},
		{"generic", S, S},
		{"nested", S, S},
		{"nestedLate", U, U},
		{"setupDefers", S, S},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, "calls", tt.name)
			if t.Failed() {
				return
			}
			for _, m := range []struct {
				m    model.Model
				want engines.Status
			}{{model.TSO, tt.tso}, {model.SC, tt.sc}} {
				eng := &explicit.Engine{Bound: 4}
				res, err := eng.Check(context.Background(), s.Program, m.m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != m.want {
					t.Errorf("%v: got %v, want %v\n%s", m.m, res.Status, m.want, native.Format(s.Program))
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
