// Package chanruns checks fencecheck's promise that every deadlock, leak,
// panic and data race seen at run time is a finding, on generated Go
// programs with channels.
//
// A deterministic generator (math/rand/v2, a fixed seed) draws small
// systems: two or three goroutines and the system function's body after
// them, one or two channels of capacity 0, 1 or 2 carrying int or
// struct{}, and straight-line code of sends, receives (plain, checking the
// value, v, ok), closes, selects of two cases with or without default,
// for-range loops over a channel, loops of two or three sends or receives,
// len and cap, select {}, accesses to a shared plain int32, and sometimes a
// sync.WaitGroup the body waits on. Most programs balance their sends and
// receives before a few rewrites and mutations, the others draw each
// statement on its own (see protocolStyle and randomStyle). A select's two
// cases may name one channel, buffered or not. The channels are made
// before the go statements and every channel operation comes after them, since the
// set-up may not block. Program i of a seed is the same whatever the
// number of programs.
//
// The test writes the programs into a module of its own, one package each,
// and runs fencecheck -json on it twice: as it is, and with -races=false
// (fencecheck reports the first bad state it finds after its race:
// findings, and the second pass is its verdict on the bad states alone).
// It builds, with -race, a command that calls one system again and again
// under a watchdog: a call that does not return within a second while the
// system's goroutines are all blocked is a deadlock, goroutines of the
// system left blocked 200ms after the call returned are a leak, a
// "panic: " crash is a panic, and "WARNING: DATA RACE" is a race. A
// process stops at the first deadlock or leak; the next process, up to
// three, goes on past the kinds already seen.
//
// Every run-time event must be a finding: a race on memory needs a race:
// finding; a deadlock, a leak or a panic needs a finding of a bad state
// other than a race (deadlock:, leak:, SC: or x86-TSO:) from the default
// pass or, when that pass has none, from the -races=false pass. fencecheck
// reports one such bad state per system, so a finding of another bad state
// than the one the runs saw (a leak: finding for a run-time panic)
// accounts for the event as "shadowed", and a deadlock: finding for a
// run-time leak or the reverse, or an SC: finding of a panic at another
// line, as "other kind"; both are counted and listed, not failed. The race
// detector also reports a send racing with a close of its channel (the
// run time's own accesses, "chan-race" in the tables); fencecheck's race:
// findings are about memory, and what it reports of such a race is the
// panic "send on closed channel" it leads to, so that is the finding such
// an event needs, like a panic.
//
// A finding of unsupported code, an inconclusive answer, an internal error
// or a package fencecheck cannot load fails the test with the program's
// text, and so does a process that ends for no reason the harness knows.
// Findings the runs did not see are logged: runs see only some schedules.
//
// It is an integration test, skipped unless FENCECHECK_INTEGRATION=1:
//
//	FENCECHECK_INTEGRATION=1 go test -v -count=1 ./integration/chanruns/
//
// It takes about 35 seconds on two cores. -chanruns.count=N (or
// FENCECHECK_CHANRUNS_COUNT=N) sets the number of programs (default 40),
// -chanruns.seed the seed, -chanruns.from the index of the first program
// (-chanruns.seed=3 -chanruns.from=309 -chanruns.count=1 runs program 309
// of seed 3 alone), -chanruns.long runs the long variant (400 programs,
// 1000 calls per process; about 6 minutes on two cores), and
// -chanruns.keep=DIR writes the generated module to DIR and keeps it:
//
//	FENCECHECK_INTEGRATION=1 go test -count=1 -timeout=30m ./integration/chanruns/ -chanruns.long
package chanruns

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// envCount is the variable that sets the number of programs when the
// -chanruns.count flag does not.
const envCount = "FENCECHECK_CHANRUNS_COUNT"

var (
	flagCount = flag.Int("chanruns.count", 0, "number of programs to generate (0: $"+envCount+", else 40, or 400 with -chanruns.long)")
	flagFrom  = flag.Int("chanruns.from", 0, "index of the first program (with -chanruns.count=1, to run one program again)")
	flagSeed  = flag.Uint64("chanruns.seed", 1, "seed of the program generator")
	flagLong  = flag.Bool("chanruns.long", false, "run the long variant: 400 programs, 1000 calls per process")
	flagKeep  = flag.String("chanruns.keep", "", "write the generated module to this directory and keep it")
)

// defaultRun is how the systems run by default; the long variant makes
// 1000 calls per process.
var defaultRun = runConfig{
	iterations: 300,
	hang:       time.Second,
	leakWait:   200 * time.Millisecond,
	attempts:   3,
	timeout:    2 * time.Minute,
}

// programCount returns the number of programs to generate.
func programCount(t *testing.T) int {
	t.Helper()
	switch {
	case *flagCount > 0:
		return *flagCount
	case os.Getenv(envCount) != "":
		n, err := strconv.Atoi(os.Getenv(envCount))
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive number", envCount, os.Getenv(envCount))
		}
		return n
	case *flagLong:
		return 400
	}
	return 40
}

// writeModule writes the generated module: go.mod, one package per
// program, and the runner command.
func writeModule(root string, progs []program) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module gen\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	for _, p := range progs {
		dir := filepath.Join(root, p.pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, p.pkg+".go"), []byte(p.src), 0o644); err != nil {
			return err
		}
	}
	return writeRunner(root, progs)
}

// TestChannelRuns generates the programs, runs fencecheck on them and runs
// them, and checks that every run-time event is a finding.
func TestChannelRuns(t *testing.T) {
	itest.RequireIntegration(t)
	start := time.Now()
	n, seed := programCount(t), *flagSeed
	cfg := defaultRun
	if *flagLong {
		cfg.iterations = 1000
	}

	tmp := t.TempDir()
	root := filepath.Join(tmp, "gen")
	if *flagKeep != "" {
		var err error
		if root, err = filepath.Abs(*flagKeep); err != nil {
			t.Fatal(err)
		}
	}
	progs := make([]program, n)
	for i := range progs {
		progs[i] = generate(seed, *flagFrom+i)
	}
	if err := writeModule(root, progs); err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d programs (seed %d, from %d) into %s", n, seed, *flagFrom, root)
	fencecheck := itest.BuildFencecheck(t, filepath.Join(tmp, "bin"))
	runner := filepath.Join(tmp, "bin", "run")

	// go vet and the race-enabled build, then fencecheck's two passes.
	var (
		wg               sync.WaitGroup
		vetOut, buildOut []byte
		vetErr, buildErr error
	)
	t0 := time.Now()
	wg.Add(2)
	go func() {
		defer wg.Done()
		vetOut, vetErr = itest.Command(root, "go", "vet", "./...").CombinedOutput()
	}()
	go func() {
		defer wg.Done()
		buildOut, buildErr = itest.Command(root, "go", "build", "-race", "-o", runner, "./"+runnerDir).CombinedOutput()
	}()
	wg.Wait()
	t.Logf("go vet ./... and go build -race: %v", time.Since(t0).Round(time.Millisecond))
	if vetErr != nil {
		t.Errorf("go vet on the generated programs: %v\n%s", vetErr, vetOut)
	}
	if buildErr != nil {
		t.Fatalf("go build -race: %v\n%s", buildErr, buildOut)
	}
	t0 = time.Now()
	pkgs := make([]string, n)
	for i, p := range progs {
		pkgs[i] = p.pkg
	}
	defPass, noRacesPass := &fencecheckPass{}, &fencecheckPass{flags: []string{"-races=false"}}
	runFencecheckPasses(fencecheck, root, pkgs, runtime.NumCPU(), defPass, noRacesPass)
	t.Logf("fencecheck -json and fencecheck -json -races=false, %d packages a process: %v", fencecheckBatch, time.Since(t0).Round(time.Millisecond))
	for _, p := range []*fencecheckPass{defPass, noRacesPass} {
		if p.err != nil {
			t.Fatal(p.err)
		}
	}
	def, noRaces := defPass.findings, noRacesPass.findings

	// The runs, as many processes at once as there are CPUs.
	t0 = time.Now()
	runs := make([]*runResult, n)
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	for i, p := range progs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			runs[i] = runSystem(context.Background(), runner, p.pkg, cfg)
		}()
	}
	wg.Wait()
	t.Logf("runs (%d calls per process, at most %d processes per system): %v", cfg.iterations, cfg.attempts, time.Since(t0).Round(time.Millisecond))

	rows := make([]*row, n)
	for i, p := range progs {
		rows[i] = compare(p, def[p.pkg], noRaces[p.pkg], runs[i])
	}
	checkRows(t, rows)
	var table strings.Builder
	writeTable(&table, rows)
	t.Logf("fencecheck's findings against the runs\n%s\n%s", table.String(), summarize(rows))
	t.Logf("total: %v", time.Since(start).Round(time.Millisecond))
}

// checkRows fails t for every miss and failure, and logs the rest of what
// does not line up: findings the runs did not see, events matched by a
// finding of another kind.
func checkRows(t *testing.T, rows []*row) {
	t.Helper()
	for _, r := range rows {
		p := r.prog
		for _, v := range r.misses() {
			hint := ""
			if v.ev.kind == evRace && r.run.has(evPanic) {
				hint = "\n(The runs also saw a panic. A goroutine that panics runs its deferred calls, a defer wg.Done() say, before the process dies, " +
					"and other goroutines run meanwhile; fencecheck ends an execution at its first panic, so accesses only those calls let happen are not in its model.)"
			}
			t.Errorf("%s: the runs saw a %s (%s) that no finding accounts for.%s\nfencecheck:\n%s\nfencecheck -races=false:\n%s\nprogram:\n%s",
				p.pkg, v.ev.kind, v.ev.detail, hint, findingsText(r.findings), findingsText(r.noRaces), numbered(p.src))
		}
		if len(r.failures) > 0 {
			t.Errorf("%s:\n%s\nprogram:\n%s\nrun output (tail):\n%s", p.pkg, strings.Join(r.failures, "\n"), numbered(p.src), itest.Tail(r.run.output, 40))
		}
		for _, v := range r.verdicts {
			if v.how == matchKind || v.how == matchShadowed {
				t.Logf("%s: run-time %s (%s) matched as %q by: %s", p.pkg, v.ev.kind, v.ev.detail, v.how, firstLine(v.by.message))
			}
		}
		for _, f := range r.unobserved {
			t.Logf("%s: not seen at run time: line %d: %s", p.pkg, f.line, firstLine(f.message))
		}
	}
}

// findingsText lists findings, one per line with their related lines.
func findingsText(fs []finding) string {
	if len(fs) == 0 {
		return "\t(none)"
	}
	var ss []string
	for _, f := range fs {
		ss = append(ss, "\t"+strings.ReplaceAll(f.String(), "\n", "\n\t"))
	}
	return strings.Join(ss, "\n")
}

// numbered returns src with line numbers.
func numbered(src string) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for i, l := range lines {
		lines[i] = fmt.Sprintf("%3d  %s", i+1, l)
	}
	return strings.Join(lines, "\n")
}

// firstLine returns s up to its first newline, cut to 200 bytes.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
