package coherence_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/coherence"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

func load(t testing.TB, name string) *model.Program {
	t.Helper()
	p, err := modelfile.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func abs(t *testing.T, s string) coherence.Abstraction {
	t.Helper()
	a, err := coherence.ParseAbstraction(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// outcome checks p under m with the abstraction a alone and returns
// "safe", "unsafe" or "spurious".
func outcome(t *testing.T, p *model.Program, m model.Model, a coherence.Abstraction) string {
	t.Helper()
	res, err := (&coherence.Engine{Abstraction: a, NoRefine: true}).Check(context.Background(), p, m)
	if err != nil {
		t.Fatalf("%s under %v with %s: %v", p.Name, m, a, err)
	}
	switch {
	case res.Status == engines.Safe:
		if res.Bound != "" {
			t.Errorf("%s: a safe answer with a bound %q", p.Name, res.Bound)
		}
		return "safe"
	case res.Status == engines.Unsafe:
		return "unsafe"
	case strings.Contains(res.Reason, "is spurious"):
		return "spurious"
	}
	return res.Reason
}

// TestHandChecked checks small programs whose abstract behaviours were
// worked out by hand (the comments of the files say why).
func TestHandChecked(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string // [pso/]abstraction → outcome under TSO (PSO)
	}{
		{"fig6.rmm", map[string]string{"set": "spurious", "fd0": "spurious", "pd0": "spurious", "fd1": "safe", "pd1": "safe", "fd2": "safe"}},
		{"three.rmm", map[string]string{"set": "spurious", "fd0": "spurious", "fd1": "spurious", "pd1": "spurious", "fd2": "safe", "pd2": "safe", "fd3": "safe"}},
		{"own.rmm", map[string]string{"set": "spurious", "fd0": "safe", "pd0": "safe", "fd1": "safe"}},
		{"pet2.rmm", map[string]string{"set": "spurious", "fd0": "safe", "pd0": "safe", "fd1": "safe", "pd1": "safe"}},
		{"../../../testdata/rmm/sb.rmm", map[string]string{"set": "unsafe", "fd0": "unsafe", "pd0": "unsafe", "fd1": "unsafe", "pd2": "unsafe"}},
		{"../../../testdata/rmm/dekker_fenced.rmm", map[string]string{"set": "spurious", "fd0": "safe", "pd0": "safe", "fd1": "safe", "pso/set": "spurious", "pso/fd0": "safe"}},
		// Under TSO one buffer holds d and f, and the k = 0 abstractions
		// lose their order; under PSO each has its own, and the
		// store-store fence keeps them in order.
		{"mp_ssfence.rmm", map[string]string{"set": "spurious", "fd0": "spurious", "pd0": "spurious", "fd1": "safe", "pso/set": "safe", "pso/fd0": "safe", "pso/pd0": "safe", "pso/fd1": "safe"}},
		{"mp_nofence.rmm", map[string]string{"fd1": "safe", "pso/set": "unsafe", "pso/fd0": "unsafe", "pso/pd1": "unsafe", "pso/fd2": "unsafe"}},
		{"fig6.rmm", map[string]string{"pso/set": "spurious", "pso/fd0": "spurious", "pso/pd0": "spurious", "pso/fd1": "safe", "pso/pd1": "safe"}},
		{"three.rmm", map[string]string{"pso/fd1": "spurious", "pso/fd2": "safe", "pso/pd2": "safe"}},
	} {
		p := load(t, tc.file)
		for a, want := range tc.want {
			m := model.TSO
			if rest, ok := strings.CutPrefix(a, "pso/"); ok {
				a, m = rest, model.PSO
			}
			if got := outcome(t, p, m, abs(t, a)); got != want {
				t.Errorf("%s under %v with %s: %s, want %s", tc.file, m, a, got, want)
			}
		}
		// Under SC no store is buffered, and every program here is safe
		// (sb's bad state needs both stores buffered).
		if got := outcome(t, p, model.SC, abs(t, "set")); got != "safe" {
			t.Errorf("%s under SC: %s, want safe", tc.file, got)
		}
	}
}

// TestRefinement follows the default refinement: Set, then FD_1, FD_2.
func TestRefinement(t *testing.T) {
	for _, tc := range []struct {
		file   string
		maxK   int
		rounds []string // abstraction:outcome
		status engines.Status
	}{
		{"fig6.rmm", 0, []string{"set:spurious", "fd1:safe"}, engines.Safe},
		{"three.rmm", 0, []string{"set:spurious", "fd1:spurious", "fd2:safe"}, engines.Safe},
		{"three.rmm", 1, []string{"set:spurious", "fd1:spurious"}, engines.Inconclusive},
	} {
		var rounds []string
		e := &coherence.Engine{MaxK: tc.maxK, Observe: func(r coherence.Round) {
			rounds = append(rounds, r.Abstraction.String()+":"+r.Outcome)
		}}
		res, err := e.Check(context.Background(), load(t, tc.file), model.TSO)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.status || strings.Join(rounds, " ") != strings.Join(tc.rounds, " ") {
			t.Errorf("%s (max k %d): %v after %v, want %v after %v", tc.file, tc.maxK, res.Status, rounds, tc.status, tc.rounds)
		}
		if res.Status == engines.Inconclusive && !strings.Contains(res.Reason, "try FD_2") {
			t.Errorf("%s: reason %q does not name FD_2", tc.file, res.Reason)
		}
	}
}

// TestParseAbstraction covers the flag's syntax.
func TestParseAbstraction(t *testing.T) {
	for _, tc := range []struct {
		in   string
		k    int
		want string
		err  bool
	}{
		{"set", 3, "set", false},
		{"fd", 2, "fd2", false},
		{"FD1", 5, "fd1", false},
		{"pd", 0, "pd0", false},
		{"pd12", 0, "pd12", false},
		{"fdx", 0, "", true},
		{"fd", -1, "", true},
		{"bag", 0, "", true},
	} {
		a, err := coherence.ParseAbstraction(tc.in, tc.k)
		if (err != nil) != tc.err || (err == nil && a.String() != tc.want) {
			t.Errorf("ParseAbstraction(%q, %d) = %v, %v; want %s (error %v)", tc.in, tc.k, a, err, tc.want, tc.err)
		}
	}
	if got := (coherence.Abstraction{Kind: coherence.PD, K: 1}).Next().String(); got != "fd1" {
		t.Errorf("after pd1: %s, want fd1", got)
	}
}
