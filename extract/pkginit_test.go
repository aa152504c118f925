package extract_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestPackageInit checks that the package's initialisation (initialisers
// of package-level variables and init functions) runs before the setup of
// each system: the initial values of the model's variables, the number of
// processes the setup spawns, and the verdicts: every system of the
// package is correct under x86-TSO and SC, and race-free, when the
// variables have the values Go gives them.
func TestPackageInit(t *testing.T) {
	tests := []struct {
		name  string
		procs int
		inits map[string]int64
	}{
		// var lock = &sync.Mutex{}: the mutex, not a nil pointer.
		{"lockedCounter", 3, map[string]int64{"lock": 0, "counter": 0, "wg": 2}},
		// var n = 4 as the bound of the setup's loop.
		{"loopBound", 5, map[string]int64{"hits[0]": 0, "hits[3]": 0, "wg": 4}},
		// var limit int32; func init() { limit = 3 }
		{"initLimit", 2, map[string]int64{"limit": 3}},
		// var maxSpins = computeMax(); var p = &point{x: 1};
		// var origin = point{x: 4, y: 5}; var flags [2]int32
		{"fromFunction", 3, map[string]int64{"maxSpins": 6, "p.x": 1, "p.y": 0, "origin.x": 4, "origin.y": 5, "flags[0]": 0, "flags[1]": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, "pkginit", tt.name)
			if t.Failed() {
				return
			}
			p := s.Program
			if len(p.Procs) != tt.procs {
				t.Errorf("processes = %v, want %d", procNames(p), tt.procs)
			}
			inits := map[string]int64{}
			for _, v := range p.Vars {
				inits[v.Name] = v.Init.Value
			}
			for name, want := range tt.inits {
				if got, ok := inits[name]; !ok || got != want {
					t.Errorf("variable %s: initial value %d (present: %v), want %d", name, got, ok, want)
				}
			}
			for _, m := range []model.Model{model.TSO, model.SC} {
				res, err := (&explicit.Engine{Bound: 3}).Check(context.Background(), p, m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != engines.Safe {
					t.Errorf("%v: %v, want safe\n%s", m, res, native.Format(p))
					if res.Trace != nil {
						states, _ := p.Replay(res.Trace)
						t.Log(p.FormatTrace(res.Trace, states))
					}
				}
			}
			rr, err := race.Check(context.Background(), &explicit.Engine{MaxStates: 1_000_000}, p, race.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rr.Status != engines.Safe {
				t.Errorf("race check: %v %v, want race-free\n%s", rr.Status, rr.Races, native.Format(p))
			}
		})
	}
}
