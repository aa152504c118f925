package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
)

// TestRuntimeVerdicts checks the verdicts of systems that call into the
// run time (yields, linknamed random numbers, Goexit, panic and recover,
// the clock, sync.Pool)
// against what Go allows (each system's comment in testdata/src/rtcalls
// gives the reasoning).
func TestRuntimeVerdicts(t *testing.T) {
	testVerdicts(t, "rtcalls", []verdictCase{
		{"yieldSpin", S, S},
		{"pick", U, U},
		{"goexitDefers", S, S},
		{"goexitSkipsRest", S, S},
		{"recovered", S, S},
		{"notRecovered", U, U},
		{"recoverValue", S, S},
		{"recoverNotPanicking", S, S},
		{"namedResults", S, S},
		{"nilDerefRecovered", S, S},
		{"monotonic", S, S},
		{"ticks", U, U},
		{"zeroTime", S, S},
		{"timeout", U, U},
		{"noTimeout", S, S},
		{"poolReturnsPut", S, S},
		{"poolMayIgnore", U, U},
		{"poolHandsOver", S, S},
		{"recoverStores", S, S},
		{"recoverStoresWrong", U, U},
		{"otherTimes", S, S},
	})
}

// TestVariants checks that a system whose set-up reads values the run time
// picks is one System per combination of them, named after it, and that
// too many combinations are reported.
func TestVariants(t *testing.T) {
	l := load(t, "runtimevariants")
	systems, diags := extract.PackageWith(l.fset, l.pkg, l.files, l.info, extract.Options{MaxProcs: 3})
	var names []string
	for _, s := range systems {
		names = append(names, s.Name)
		if err := s.Program.Validate(); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if strings.Contains(s.Name, " with ") != (s.Variant != "") {
			t.Errorf("%s: variant %q", s.Name, s.Variant)
		}
	}
	want := []string{
		"pool with runtime.GOMAXPROCS(0) = 1", "pool with runtime.GOMAXPROCS(0) = 2", "pool with runtime.GOMAXPROCS(0) = 3",
		"twoChoices with runtime.NumCPU() = 1, rand.Intn(2) = 0", "twoChoices with runtime.NumCPU() = 1, rand.Intn(2) = 1",
		"twoChoices with runtime.NumCPU() = 2, rand.Intn(2) = 0", "twoChoices with runtime.NumCPU() = 2, rand.Intn(2) = 1",
		"twoChoices with runtime.NumCPU() = 3, rand.Intn(2) = 0", "twoChoices with runtime.NumCPU() = 3, rand.Intn(2) = 1",
		"sameValue with runtime.GOMAXPROCS(0) = 1", "sameValue with runtime.GOMAXPROCS(0) = 2", "sameValue with runtime.GOMAXPROCS(0) = 3",
	}
	if !slices.Equal(names, want) {
		t.Errorf("systems:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range systems {
		if strings.HasPrefix(s.Name, "pool ") && len(s.Program.Procs) != int(s.Name[len(s.Name)-1]-'0')+1 {
			t.Errorf("%s: %d processes", s.Name, len(s.Program.Procs))
		}
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "more than 16 runs of system tooMany") || l.fset.Position(diags[0].Pos).Line != lineOf(t, "testdata/src/runtimevariants/runtimevariants.go", "n := runtime.NumGoroutine()") {
		for _, d := range diags {
			t.Errorf("%s: %s", l.fset.Position(d.Pos), d.Message)
		}
		t.Errorf("want one diagnostic: more than 16 runs of system tooMany")
	}
}

// TestUnwindLoweredOnce checks that the deferred calls a panic runs are
// lowered once for all the places in a function that may panic: the
// deferred body's store has as many steps with six places as with one.
func TestUnwindLoweredOnce(t *testing.T) {
	l := load(t, "rtcalls")
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		t.Errorf("%s: %s", l.fset.Position(d.Pos), d.Message)
	}
	line := lineOf(t, "testdata/src/rtcalls/unwindonce.go", "marker: deferred body")
	steps := map[string]int{}
	for _, s := range systems {
		for _, q := range s.Program.Procs {
			for _, tr := range q.Trans {
				if strings.HasSuffix(tr.Pos.File, "unwindonce.go") && tr.Pos.Line == line {
					steps[s.Name]++
				}
			}
		}
	}
	if steps["oneSite"] == 0 || steps["sixSites"] != steps["oneSite"] {
		t.Errorf("steps at the deferred body's store: oneSite %d, sixSites %d; want the same, not 0", steps["oneSite"], steps["sixSites"])
	}
}
