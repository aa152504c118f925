// Package floatruns checks fencecheck's verdicts on generated Go systems
// that compute with float64 and float32 values against two oracles: an
// enumeration of the systems' interleavings that computes with the test's
// own Go arithmetic, and the systems themselves, built with -race and run.
//
// A deterministic generator (math/rand/v2, a fixed seed) draws systems of
// two goroutines that update float fields under a mutex (+, -, *, / by a
// constant, negation, conversions between float32 and float64), add a
// float to a uint64 holding float bits with a compare-and-swap loop (the
// atomic float add of client libraries) or with an atomic load and a
// separate atomic store (a lost update), and add to a plain float field
// (a data race when both goroutines do). The constants include values that
// round, overflow to infinities, underflow, and negative zero, from which
// NaNs and signed zeros follow. After wg.Wait the system function tests
// every field against its value when the goroutines run one after the
// other: by its bits, with == (a NaN with x == x), through int64(x) or
// with <, and panics on the first test that fails.
//
// The enumeration runs every interleaving of the goroutines' steps and
// lists the panics they reach. fencecheck runs twice, as it is and with
// -races=false; the second pass must report a bad state exactly when the
// enumeration reaches one, at one of the lines it reaches (fencecheck
// reports one bad state per system), and the first pass must report a race
// exactly when both goroutines touch the plain field. Each system is then
// called again and again under the race detector: every panic and every
// race it sees must be one the enumeration and fencecheck expect. An
// unsupported, inconclusive or internal answer fails the test.
//
// It is an integration test, skipped unless FENCECHECK_INTEGRATION=1:
//
//	FENCECHECK_INTEGRATION=1 go test -v -count=1 ./integration/floatruns/
//
// -floatruns.count=N sets the number of programs (default 30),
// -floatruns.seed the seed, -floatruns.keep=DIR keeps the generated module.
package floatruns

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

var (
	flagCount = flag.Int("floatruns.count", 30, "number of programs to generate")
	flagSeed  = flag.Uint64("floatruns.seed", 1, "seed of the program generator")
	flagCalls = flag.Int("floatruns.calls", 200, "calls of each system under the race detector")
	flagKeep  = flag.String("floatruns.keep", "", "write the generated module to this directory and keep it")
)

// writeModule writes go.mod, one package per program and the runner,
// which calls the system named by its argument again and again and prints
// each distinct panic once.
func writeModule(root string, progs []program) error {
	files := map[string]string{"go.mod": "module gen\n\ngo 1.26\n"}
	var imports, cases strings.Builder
	for _, p := range progs {
		files[filepath.Join(p.pkg, p.pkg+".go")] = p.src
		fmt.Fprintf(&imports, "\t%q\n", "gen/"+p.pkg)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\tf = %s.System\n", p.pkg, p.pkg)
	}
	files[filepath.Join("run", "main.go")] = fmt.Sprintf(`// Command run calls a generated system again and again.
package main

import (
	"fmt"
	"os"
	"strconv"

%s)

func main() {
	var f func()
	switch os.Args[1] {
%s	}
	n, _ := strconv.Atoi(os.Args[2])
	seen := map[string]bool{}
	for range n {
		func() {
			defer func() {
				if r := recover(); r != nil && !seen[fmt.Sprint(r)] {
					seen[fmt.Sprint(r)] = true
					fmt.Println("PANIC", r)
				}
			}()
			f()
		}()
	}
}
`, imports.String(), cases.String())
	for name, src := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// findings runs fencecheck -json with flags on the packages and returns
// the diagnostics by package.
func findings(bin, root string, pkgs []string, flags ...string) (map[string][]itest.Diagnostic, error) {
	args := append([]string{"-json"}, flags...)
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	out, err := itest.Command(root, bin, args...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return nil, fmt.Errorf("fencecheck %s: %v\n%s%s", strings.Join(args, " "), err, out, msg)
	}
	answers, err := itest.ParseJSON(out)
	if err != nil {
		return nil, err
	}
	found := map[string][]itest.Diagnostic{}
	for _, a := range answers {
		if a.Other != nil {
			found[a.Pkg] = append(found[a.Pkg], itest.Diagnostic{Message: "error: " + string(a.Other)})
		}
		found[a.Pkg] = append(found[a.Pkg], a.Diagnostics...)
	}
	return found, nil
}

// TestFloatRuns generates the programs and compares fencecheck's verdicts
// with the enumeration of their interleavings and with their runs.
func TestFloatRuns(t *testing.T) {
	itest.RequireIntegration(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("fencecheck computes floats as gc does on amd64")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "gen")
	if *flagKeep != "" {
		var err error
		if root, err = filepath.Abs(*flagKeep); err != nil {
			t.Fatal(err)
		}
	}
	progs := make([]program, *flagCount)
	pkgs := make([]string, len(progs))
	for i := range progs {
		progs[i] = generate(*flagSeed, i)
		pkgs[i] = progs[i].pkg
	}
	if err := writeModule(root, progs); err != nil {
		t.Fatal(err)
	}
	bin := itest.BuildFencecheck(t, filepath.Join(tmp, "bin"))
	runner := filepath.Join(tmp, "bin", "run")
	if out, err := itest.Command(root, "go", "build", "-race", "-o", runner, "./run").CombinedOutput(); err != nil {
		t.Fatalf("go build -race: %v\n%s", err, out)
	}
	t0 := time.Now()
	withRaces, err := findings(bin, root, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	badStates, err := findings(bin, root, pkgs, "-races=false")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fencecheck, two passes over %d systems: %v", len(progs), time.Since(t0).Round(time.Millisecond))

	var stats struct{ bad, racy, seenPanics, seenRaces int }
	for _, p := range progs {
		want := outcomes(p)
		if len(want) > 0 {
			stats.bad++
		}
		if p.racy {
			stats.racy++
		}
		fail := func(format string, args ...any) {
			t.Errorf("%s: %s\n%s", p.pkg, fmt.Sprintf(format, args...), p.src)
		}
		// The -races=false pass: a bad state exactly where the enumeration
		// reaches one.
		var reported []int
		for _, d := range badStates[p.pkg] {
			switch kind := itest.MessageKind(d.Message); kind {
			case "SC", "x86-TSO":
				_, line := itest.SplitPos(d.Posn)
				reported = append(reported, line)
			case "race":
			default:
				fail("-races=false: %s %s", d.Posn, d.Message)
			}
		}
		switch {
		case len(want) == 0 && len(reported) > 0:
			fail("fencecheck reports a panic at lines %v that no interleaving reaches", reported)
		case len(want) > 0 && len(reported) == 0:
			fail("no bad state reported; interleavings reach the panics at lines %v", keys(want))
		}
		for _, l := range reported {
			if !want[l] {
				fail("fencecheck reports the panic at line %d; interleavings reach %v", l, keys(want))
			}
		}
		// The default pass: a race exactly when both goroutines touch s.c.
		raced := false
		for _, d := range withRaces[p.pkg] {
			switch itest.MessageKind(d.Message) {
			case "race":
				raced = true
			case "SC", "x86-TSO":
			default:
				fail("%s %s", d.Posn, d.Message)
			}
		}
		if raced != p.racy {
			fail("race reported: %v, want %v", raced, p.racy)
		}
		// The runs.
		out, err := itest.RunRace(context.Background(), time.Minute, root, nil, runner, p.pkg, fmt.Sprint(*flagCalls))
		if err != nil && !strings.Contains(out, "WARNING: DATA RACE") {
			fail("run: %v\n%s", err, itest.Tail(out, 30))
			continue
		}
		if strings.Contains(out, "WARNING: DATA RACE") {
			stats.seenRaces++
			if !p.racy {
				fail("the race detector reports a race fencecheck does not:\n%s", itest.Tail(out, 30))
			}
		}
		for _, line := range strings.Split(out, "\n") {
			var k int
			if _, err := fmt.Sscanf(line, "PANIC check %d", &k); err != nil {
				continue
			}
			stats.seenPanics++
			if k < 0 || k >= len(p.lines) || !want[p.lines[k]] {
				fail("a run panics at check %d, which no interleaving reaches", k)
			}
		}
	}
	t.Logf("%d systems: %d reach a panic, %d racy; the runs saw %d distinct panics, and races in %d systems",
		len(progs), stats.bad, stats.racy, stats.seenPanics, stats.seenRaces)
}

func keys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
