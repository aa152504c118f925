package chanruns

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// agreementEngines are the engines TestEngineAgreement compares: the
// explicit search, the exact SB engine and the predicate engine, each
// deciding every generated program on its own.
var agreementEngines = []string{"explicit", "sb", "pred"}

// TestEngineAgreement decides the generated channel programs with each
// engine of agreementEngines, races left out (-races=false: a system's
// bad states alone), and checks that they agree on whether a bad state is
// reachable. The kind of the finding may differ (an engine reports the
// first bad state its search meets: a deadlock or a panic); whether there
// is one may not. The exact engines need finite domains: where one says a
// variable has none (the domain inference over-approximates, as for x++
// of a shared x), it is left out of that program's comparison. Any other
// answer that is not a verdict fails the test.
func TestEngineAgreement(t *testing.T) {
	itest.RequireIntegration(t)
	start := time.Now()
	n, seed := programCount(t), *flagSeed
	tmp := t.TempDir()
	root := filepath.Join(tmp, "gen")
	progs := make([]program, n)
	pkgs := make([]string, n)
	for i := range progs {
		progs[i] = generate(seed, *flagFrom+i)
		pkgs[i] = progs[i].pkg
	}
	if err := writeModule(root, progs); err != nil {
		t.Fatal(err)
	}
	fencecheck := itest.BuildFencecheck(t, filepath.Join(tmp, "bin"))
	passes := make([]*fencecheckPass, len(agreementEngines))
	for i, e := range agreementEngines {
		passes[i] = &fencecheckPass{flags: []string{"-races=false", "-engine=" + e}}
	}
	runFencecheckPasses(fencecheck, root, pkgs, runtime.NumCPU(), passes...)
	for i, p := range passes {
		if p.err != nil {
			t.Fatalf("-engine=%s: %v", agreementEngines[i], p.err)
		}
	}
	bad, skipped := 0, 0
	for _, p := range progs {
		verdicts := make([]string, len(passes))
		for i, pass := range passes {
			verdicts[i] = "none"
			for _, f := range pass.findings[p.pkg] {
				switch {
				case strings.Contains(f.message, "has no finite domain") || strings.Contains(f.message, "have no finite domain"):
					verdicts[i] = "skipped"
					skipped++
				case f.failure():
					t.Errorf("%s: -engine=%s gave no verdict: %s\n%s", p.pkg, agreementEngines[i], f, numbered(p.src))
				case f.nonRace():
					verdicts[i] = "bad"
				}
			}
		}
		if slices.Contains(verdicts, "bad") {
			bad++
		}
		if slices.Contains(verdicts, "bad") && slices.Contains(verdicts, "none") {
			var b strings.Builder
			for i, pass := range passes {
				b.WriteString("-engine=" + agreementEngines[i] + ": " + verdicts[i] + "\n")
				for _, f := range pass.findings[p.pkg] {
					b.WriteString("\t" + f.String() + "\n")
				}
			}
			t.Errorf("%s: the engines disagree on whether a bad state is reachable\n%s%s", p.pkg, b.String(), numbered(p.src))
		}
	}
	t.Logf("%d programs, %d with a reachable bad state, decided alike by %s (%d answers left out for want of finite domains) in %v",
		n, bad, strings.Join(agreementEngines, ", "), skipped, time.Since(start).Round(time.Millisecond))
}
