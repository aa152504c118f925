package extract_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model"
)

// TestInterfacesEngines runs the sb and pred engines on the systems of the
// interface, sentinel and function-value tables under TSO: each gives the
// hand-checked verdict or an inconclusive answer, never the other verdict,
// and every counterexample replays.
func TestInterfacesEngines(t *testing.T) {
	for _, tt := range []struct {
		pkg, name string
		want      engines.Status
	}{
		{"ifaces", "cellAfterWait", S},
		{"ifaces", "cellNoWait", U},
		{"ifaces", "methodSplit", S},
		{"ifaces", "methodRace", U},
		{"ifaces", "valueHolder", S},
		{"ifaces", "valueUnset", U},
		{"ifaces", "valueMixed", U},
		{"ifaces", "valueSwapCAS", S},
		{"ifaces", "anyStackWrong", U},
		{"errsent", "sentinel", S},
		{"errsent", "sentinelWrong", U},
		{"funcvals", "group", S},
		{"funcvals", "groupNoWait", U},
		{"funcvals", "funcLocal", S},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, tt.pkg, tt.name)
			if t.Failed() {
				return
			}
			for _, eng := range []engines.Engine{&sb.Engine{}, &pred.Engine{}} {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				res, err := eng.Check(ctx, s.Program, model.TSO)
				cancel()
				if err != nil && strings.Contains(err.Error(), "finite domains") {
					continue // sb answers only finite programs (the analyzer picks pred)
				}
				if err != nil {
					t.Fatalf("%s: %v", eng.Name(), err)
				}
				switch res.Status {
				case S, U:
					if res.Status != tt.want {
						t.Errorf("%s: got %v, want %v", eng.Name(), res, tt.want)
					}
					if res.Status == U {
						if err := engines.Verify(s.Program, res); err != nil {
							t.Errorf("%s: the counterexample does not replay: %v", eng.Name(), err)
						}
					}
				default:
					t.Logf("%s: %v", eng.Name(), res.Status)
				}
			}
		})
	}
}
