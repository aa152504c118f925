package auto_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/auto"
	"github.com/fencecheck/fencecheck/engines/smt"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestChoice checks the engine chosen for models of each kind, and that
// the chosen engine's answer is the expected one.
func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		file       string
		exact      string
		goroutines int
		engine     string
		want       engines.Status
	}{
		{"rmm/sb.rmm", auto.Explicit, 2, "explicit", engines.Unsafe},
		{"rmm/dekker_fenced.rmm", auto.SB, 2, "sb", engines.Safe},
		{"scale/ring5.fcm", auto.SB, 5, "modular+sb+bmc", engines.Safe},
		{"scale/bakery4.fcm", auto.SB, 4, "modular+sb+bmc", engines.Unsafe},
		{"kabs/bakery.rmm", auto.Pred, 2, "pred", engines.Unsafe},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, err := modelfile.Load(filepath.Join("..", "..", "testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := auto.Exact(p); got != tc.exact {
				t.Errorf("Exact = %s, want %s", got, tc.exact)
			}
			if got := auto.Goroutines(p); got != tc.goroutines {
				t.Errorf("Goroutines = %d, want %d", got, tc.goroutines)
			}
			e := &auto.Engine{}
			if e.Last() != "" {
				t.Errorf("Last before any check = %q", e.Last())
			}
			if tc.exact == auto.Pred && !predAvailable() {
				t.Skip("the predicate engine needs Z3")
			}
			res, err := e.Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if e.Last() != tc.engine {
				t.Errorf("Last = %q, want %q", e.Last(), tc.engine)
			}
			if res.Status != tc.want {
				t.Errorf("%v, want %v", res, tc.want)
			}
			if e.For(p) != e.For(p) {
				t.Errorf("For makes a new engine per call: the checks of one fence inference would not share what it learns")
			}
		})
	}
}

func predAvailable() bool { return smt.Available && smt.Version() != "" }
