package pred_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/model"
)

// requireZ3 skips the test in a build without Z3 (cgo disabled or tag
// fencecheck_noz3), where the predicate engine only reports that it is
// unavailable; TestUnavailable covers that build.
func requireZ3(t testing.TB) {
	t.Helper()
	if !smt.Available {
		t.Skip("built without Z3: the predicate engine is unavailable")
	}
}

// TestUnavailable checks that in a build without Z3 every check that the
// zone abstraction (which needs no Z3, left out here) does not prove ends
// Inconclusive, with a reason that says the predicate engine is unavailable
// and how to get it, instead of failing.
func TestUnavailable(t *testing.T) {
	if smt.Available {
		t.Skip("built with Z3")
	}
	p := load(t, "sb.fcm")
	for _, m := range []model.Model{model.SC, model.TSO} {
		res, err := (&pred.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			t.Fatalf("%v: Check error = %v, want an inconclusive result", m, err)
		}
		if res.Status != engines.Inconclusive {
			t.Errorf("%v: status = %v, want inconclusive", m, res.Status)
		}
		for _, want := range []string{"predicate engine is unavailable", "libz3", "fencecheck_noz3", "CGO_ENABLED=1"} {
			if !strings.Contains(res.Reason, want) {
				t.Errorf("%v: reason %q does not mention %q", m, res.Reason, want)
			}
		}
	}
}
