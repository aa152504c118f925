package extract_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestSoundness checks the verdicts of systems written to break the
// lowering against what x86-TSO and SC allow for the Go code. The explicit
// engine is exact here: the processes are loop-free or their loops only
// spin, and the bound 0 picks the exact buffer bound of a loop-free program.
func TestSoundness(t *testing.T) {
	const (
		S = engines.Safe
		U = engines.Unsafe
	)
	tests := []struct {
		name    string
		tso, sc engines.Status
	}{
		{"doubleLoad", U, U},
		{"aliasSB", U, S},
		{"aliasForward", S, S},
		{"compound", U, U},
		{"swapSelf", S, S},
		{"swapObserve", S, S},
		{"swapTorn", U, U},
		{"setupStore", S, S},
		{"mainStore", U, U},
		{"dynamicStruct", U, U},
		{"casOnce", S, S},
		{"swapOld", S, S},
		{"addNew", S, S},
		{"mutexCount", S, S},
		{"waitOrder", S, S},
		{"inlinedPanic", U, U},
		{"notBool", U, U},
		{"narrow", U, U},
		{"guardOverflow", U, U},
		{"divZero", U, U},
		{"shadow", S, S},
		{"spinMP", S, S},
		{"gotoLoop", U, U},
		{"switchTag", U, U},
		{"switchOnce", U, U},
		{"captureLate", U, U},
		{"multiReturn", U, U},
		{"localCopy", S, S},
		{"setupPointer", U, U},
		{"loopRead", U, U},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, "soundness", tt.name)
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
