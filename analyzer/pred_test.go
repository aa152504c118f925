package analyzer_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// TestUnboundedLocks checks the verdicts on two locks whose tickets grow
// without bound, which the default engine choice hands to the predicate
// engine: the Linux ticket lock, correct with no barrier, and Lamport's
// bakery, which needs a barrier after each of two stores (the fence counts
// of Table 1 of Abdulla et al., SAS 2012) and is proved once its suggested
// fixes are applied.
func TestUnboundedLocks(t *testing.T) {
	t.Parallel()
	cfg := tsoOnly()
	// The bakery takes about a third of the default budget on an idle
	// machine; the margin keeps the test stable when the machine is busy.
	cfg.Budget = 4 * analyzer.DefaultBudget
	t.Run("ticket", func(t *testing.T) {
		longtest.Skip(t) // the predicate engine on a lock with wrapping counters
		analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), "ticket")
	})
	t.Run("bakery", func(t *testing.T) {
		longtest.Skip(t) // the predicate engine's longest analysis
		analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzer.New(cfg), "bakery")
	})
}

// TestUnboundedNeedsPred checks that the finite-state engines, when forced,
// decline the unbounded locks and point at the predicate engine.
func TestUnboundedNeedsPred(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ engine, pkg, want string }{
		{analyzer.EngineSB, "ticket", "inconclusive: system ticketLock: l.next and l.serving have no finite domain, which the sb engine cannot explore (-engine=sb); bound them with //fencecheck:range LO..HI"},
		{analyzer.EngineExplicit, "bakery", "inconclusive: system bakery: b.number[1], b.number[0] and n (bakery.go:28:3) have no finite domain"},
	} {
		t.Run(c.engine+"/"+c.pkg, func(t *testing.T) {
			cfg := analyzer.DefaultConfig()
			cfg.Engine = c.engine
			var rec recorder
			analysistest.Run(&rec, analysistest.TestData(), analyzer.New(cfg), c.pkg)
			if got := rec.String(); !strings.Contains(got, c.want) || !strings.Contains(got, "-engine=pred") {
				t.Errorf("-engine=%s on %s: got\n%s\nwant a diagnostic containing %q that suggests -engine=pred", c.engine, c.pkg, got, c.want)
			}
		})
	}
}

// TestPredOnFinite forces the predicate engine on finite packages, which the
// default configuration hands to the explicit or sb engine: its diagnostics
// and fixes must be those of the default engine, which the same want
// comments and .golden files check.
func TestPredOnFinite(t *testing.T) {
	t.Parallel()
	cfg := tsoOnly()
	cfg.Engine = analyzer.EnginePred
	cfg.Budget = time.Minute
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzer.New(cfg), "sb", "correct", "dekker")
}
