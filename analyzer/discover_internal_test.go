package analyzer

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/extract"
)

// lowered returns the systems of the testdata packages, as extract lowers
// them, with the pass that found them.
func lowered(t *testing.T, pkgs ...string) []*system {
	t.Helper()
	var out []*system
	probe := &analysis.Analyzer{
		Name: "discoverprobe",
		Doc:  "collects the systems of a package",
		Run: func(pass *analysis.Pass) (any, error) {
			found, _ := extract.Package(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
			for _, sys := range found {
				if sys.Program != nil {
					r := &reporter{pass: pass}
					out = append(out, &system{r: r, cfg: DefaultConfig(), sys: sys, p: sys.Program, ctx: context.Background()})
				}
			}
			return nil, nil
		},
	}
	analysistest.Run(quiet{}, analysistest.TestData(), probe, pkgs...)
	return out
}

// TestDiscoveredDomains checks the systems of package discovered, whose
// int counters are bounded by loops of 2 to 200 iterations through
// parameters, calls and constants and carry no //fencecheck:range: after
// the search of their values every cell has a finite domain and an exact
// engine takes each system, and the verdicts (the want comments) are
// those of package discoveredranged, the same systems with their ranges
// declared.
func TestDiscoveredDomains(t *testing.T) {
	t.Parallel()
	systems := lowered(t, "discovered")
	if len(systems) != 4 {
		t.Fatalf("%d systems lowered, want 4", len(systems))
	}
	for _, s := range systems {
		s.discover()
		if !s.p.Finite() {
			t.Errorf("system %s: a cell has no finite domain after the search (grows: %s)", s.sys.Name, s.growth())
			continue
		}
		eng, why := s.engine()
		if eng == nil || eng.Name() == EnginePred {
			t.Errorf("system %s: engine %v (%s), want an exact one", s.sys.Name, eng, why)
		}
	}
	analysistest.Run(t, analysistest.TestData(), New(DefaultConfig()), "discovered", "discoveredranged")
}

// TestGrowthNamed checks that a system whose values grow without bound (the
// tickets of a ticket lock, taken again and again) goes to the predicate
// engine, and that the reason names the growing cell and the statement
// that made its last value.
func TestGrowthNamed(t *testing.T) {
	t.Parallel()
	systems := lowered(t, "ticket")
	if len(systems) == 0 {
		t.Fatal("no system lowered from package ticket")
	}
	want := regexp.MustCompile(`^\S.* grows without bound: a search of the runs under sequential consistency saw it take \d+ values and more, the last made at ticket\.go:\d+:\d+$`)
	for _, s := range systems {
		s.discover()
		if s.p.Finite() {
			t.Errorf("system %s: finite after the search, but its tickets grow", s.sys.Name)
			continue
		}
		if g := s.growth(); !want.MatchString(g) {
			t.Errorf("system %s: growth %q, want it to match %s", s.sys.Name, g, want)
		}
		if eng, _ := s.engine(); eng == nil || eng.Name() != EnginePred {
			t.Errorf("system %s: engine %v, want pred", s.sys.Name, eng)
		}
	}
}

// TestBoundedLoopsExact checks the systems of package values whose
// goroutines sum in loops the program bounds (a float sum, int sums of
// constants, of the counter, of a slice up to its len) and make a slice of
// len of a map they fill or of a parameter: with no //fencecheck:range,
// every cell has a finite domain as extracted, and an exact engine takes
// each system.
func TestBoundedLoopsExact(t *testing.T) {
	t.Parallel()
	n := 0
	for _, s := range lowered(t, "values") {
		if !strings.HasPrefix(s.sys.Name, "accum") && !strings.HasPrefix(s.sys.Name, "sizedBy") || s.sys.Name == "accumUnbounded" {
			continue
		}
		n++
		if !s.p.Finite() {
			t.Errorf("system %s: a cell has no finite domain as extracted", s.sys.Name)
			continue
		}
		if eng, why := s.engine(); eng == nil || eng.Name() == EnginePred {
			t.Errorf("system %s: engine %v (%s), want an exact one", s.sys.Name, eng, why)
		}
	}
	if n != 9 {
		t.Errorf("%d systems of bounded loops lowered, want 9", n)
	}
}
