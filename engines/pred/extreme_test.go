package pred_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestExtremeDomains checks domains with bounds near the limits of int64 (a
// //fencecheck:range over all of int64): the engine's linear terms would
// overflow on x+1 ≤ hi, which once made it report "no initial
// configuration", or a counterexample that does not replay. It answers
// inconclusive, naming the variable.
func TestExtremeDomains(t *testing.T) {
	requireZ3(t)
	const src = `program "extreme"
var w : [LO:HI] = 0
process P {
  reg $t : [LO:HI] = 0
  init L0
  L0 -> L1 : read $t := w
  L1 -> L2 : write w := $t + 1
}
bad "end" : P@L2
`
	tests := []struct {
		name         string
		lo, hi       string
		inconclusive bool
	}{
		{"all of int64", "-9223372036854775808", "9223372036854775807", true},
		{"one below the top", "-9223372036854775808", "9223372036854775806", true},
		{"beyond 2^62", "0", "4611686018427387905", true},
		{"within 2^62", "-4611686018427387904", "4611686018427387904", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := native.Parse(tt.name, []byte(strings.NewReplacer("LO", tt.lo, "HI", tt.hi).Replace(src)))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []model.Model{model.SC, model.TSO} {
				res, err := (&pred.Engine{Fresh: true}).Check(context.Background(), p, m)
				if err != nil {
					t.Fatalf("%v: %v", m, err)
				}
				if tt.inconclusive {
					if res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "w has a bound beyond") {
						t.Errorf("%v: %v (%s), want inconclusive naming w", m, res.Status, res.Reason)
					}
					continue
				}
				if res.Status != engines.Unsafe {
					t.Errorf("%v: %v (%s), want unsafe", m, res.Status, res.Reason)
				}
			}
		})
	}
}
