package registry_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/registry"
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
		{"rmm/sb.rmm", registry.Explicit, 2, "explicit", engines.Unsafe},
		{"rmm/dekker_fenced.rmm", registry.SB, 2, "sb", engines.Safe},
		{"scale/ring5.fcm", registry.SB, 5, "modular+sb+bmc", engines.Safe},
		{"scale/bakery4.fcm", registry.SB, 4, "modular+sb+bmc", engines.Unsafe},
		{"kabs/bakery.rmm", registry.Pred, 2, "pred", engines.Unsafe},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, err := modelfile.Load(filepath.Join("..", "..", "testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			pl, err := registry.Choose(registry.Auto, p, registry.Reach)
			if err != nil {
				t.Fatal(err)
			}
			if pl.Exact.Name != tc.exact {
				t.Errorf("exact engine %s, want %s", pl.Exact.Name, tc.exact)
			}
			if pl.String() != tc.engine {
				t.Errorf("plan %s, want %s", pl, tc.engine)
			}
			if got := registry.Goroutines(p); got != tc.goroutines {
				t.Errorf("Goroutines = %d, want %d", got, tc.goroutines)
			}
			e := &registry.AutoEngine{}
			if e.Last() != "" {
				t.Errorf("Last before any check = %q", e.Last())
			}
			if tc.exact == registry.Pred && !predAvailable() {
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
