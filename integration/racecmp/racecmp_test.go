// Package racecmp compares fencecheck's race: findings with Go's race
// detector on a corpus of systems, the packages of the module under
// testdata: lock algorithms, litmus shapes with plain and with atomic
// accesses, and small patterns of everyday code, racy and race-free, each
// package one //fencecheck:system function whose package comment declares
// the expected verdict ("Expected: racy." or "Expected: race-free.").
//
// The test runs fencecheck -json on the corpus, and it generates a stress
// test into each package that calls the system function many times, builds
// it with go test -race -c (default optimisations) and runs it, a process
// per system, collecting the race detector's reports. A race the detector
// reports that no race: finding covers (both of its accesses at the
// finding's position or related positions) fails the test, as do a race:
// finding without an interleaving, a system fencecheck cannot analyse or
// whose race search is cut short, a declared-racy system without a race:
// finding, and a race the detector finds in a declared race-free system.
// Findings the detector did not see are listed, not failed: the detector
// only sees the races of the executions it runs.
//
// It is an integration test, skipped unless FENCECHECK_INTEGRATION=1:
//
//	FENCECHECK_INTEGRATION=1 go test -v ./integration/racecmp/
//
// FENCECHECK_RACE_TABLE=file also writes the table of results, in
// markdown, to file.
package racecmp

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// envTable names the file to write the markdown table to.
const envTable = "FENCECHECK_RACE_TABLE"

// minSystems is the least number of systems the corpus must hold.
const minSystems = 40

// stress is how the stress tests run: 200 calls of the system function per
// process, a call taking more than 5s is a hang, at most 3 processes per
// system while they crash or hang.
var stress = stressConfig{iterations: 200, hang: 5 * time.Second, attempts: 3, timeout: 2 * time.Minute}

// TestRaceDetectorAgreement checks fencecheck's race: findings on the corpus
// against the race detector's reports, and prints the table of results.
func TestRaceDetectorAgreement(t *testing.T) {
	itest.RequireIntegration(t)
	start := time.Now()
	systems, err := loadCorpus("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(systems) < minSystems {
		t.Fatalf("the corpus holds %d systems, want at least %d", len(systems), minSystems)
	}

	tmp := t.TempDir()
	fcRoot := filepath.Join(tmp, "fencecheck")
	stressRoot := filepath.Join(tmp, "stress")
	binDir := filepath.Join(tmp, "tests")
	for _, dir := range []string{fcRoot, stressRoot} {
		if err := copyCorpus("testdata", dir); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range systems {
		if err := writeHarness(stressRoot, s); err != nil {
			t.Fatal(err)
		}
	}
	fencecheck := itest.BuildFencecheck(t, filepath.Join(tmp, "bin"))

	// fencecheck on one copy, the race-enabled test binaries of the other.
	var wg sync.WaitGroup
	var fcOut, buildOut []byte
	var fcErr, buildErr error
	var fcTime, buildTime time.Duration
	wg.Add(2)
	go func() {
		defer wg.Done()
		t0 := time.Now()
		fcOut, fcErr = itest.Command(fcRoot, fencecheck, "-json", "./...").Output()
		fcTime = time.Since(t0)
	}()
	go func() {
		defer wg.Done()
		t0 := time.Now()
		buildOut, buildErr = itest.Command(stressRoot, "go", "test", "-race", "-c", "-o", binDir+string(filepath.Separator), "./...").CombinedOutput()
		buildTime = time.Since(t0)
	}()
	wg.Wait()
	t.Logf("fencecheck -json ./...: %v; go test -race -c ./...: %v", fcTime.Round(time.Millisecond), buildTime.Round(time.Millisecond))
	if buildErr != nil {
		t.Fatalf("go test -race -c ./...: %v\n%s", buildErr, buildOut)
	}
	if fcErr != nil {
		msg := ""
		if ee, ok := fcErr.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("fencecheck -json ./...: %v\n%s", fcErr, msg)
	}
	diags, err := parseFencecheckJSON(fcOut, fcRoot)
	if err != nil {
		t.Fatal(err)
	}

	// The stress tests, as many at once as there are CPUs.
	t0 := time.Now()
	runs := make([]*stressRun, len(systems))
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	for i, s := range systems {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			runs[i] = runStress(context.Background(), filepath.Join(binDir, s.pkg+".test"), stress)
		}()
	}
	wg.Wait()
	t.Logf("stress tests (%d calls per process): %v", stress.iterations, time.Since(t0).Round(time.Millisecond))

	rows := make([]*row, len(systems))
	for i, s := range systems {
		rows[i] = compare(s, diags[s.pkg], runs[i], stressRoot)
	}
	checkRows(t, rows)

	summary := summarize(rows)
	var buf bytes.Buffer
	writeText(&buf, rows)
	t.Logf("fencecheck race: findings against go test -race\n%s\n%s\n%s", buf.String(), summary, tableLegend)
	if file := os.Getenv(envTable); file != "" {
		var md bytes.Buffer
		writeMarkdown(&md, rows, summary)
		if err := os.WriteFile(file, md.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Logf("total: %v", time.Since(start).Round(time.Millisecond))
}

// checkRows fails t for every disagreement that is a failure.
func checkRows(t *testing.T, rows []*row) {
	t.Helper()
	for _, r := range rows {
		s := r.sys
		for _, p := range r.missed {
			t.Errorf("%s: the race detector reports a race between %s and %s (%s) that no fencecheck race: finding covers; fencecheck's race findings: %s",
				s.pkg, describe(p.a), describe(p.b), p.label(), describeRaces(r.races))
		}
		for _, d := range r.noInterleaving {
			t.Errorf("%s: race finding without an interleaving at %s: %s", s.pkg, d.pos, d.message)
		}
		for _, d := range r.failures {
			t.Errorf("%s: fencecheck did not decide the races of the system: %s: %s", s.pkg, d.pos, d.message)
		}
		if s.expected == "racy" && len(r.races) == 0 && len(r.failures) == 0 {
			t.Errorf("%s: declared racy, but fencecheck reports no race (race detector: %q)", s.pkg, r.raceLines())
		}
		if s.expected == "race-free" && len(r.pairs) > 0 {
			t.Errorf("%s: declared race-free, but the race detector reports races %s", s.pkg, r.raceLines())
		}
		if r.run.completed == 0 && len(r.run.reports) == 0 {
			t.Logf("%s: no stress process completed and none reported a race:\n%s", s.pkg, itest.Tail(r.run.output, 40))
		}
	}
}

// summarize counts the rows by outcome.
func summarize(rows []*row) string {
	var racy, seen, fcRacy, agree, fewer, falsePos, missed, findings, confirmed int
	for _, r := range rows {
		if r.sys.expected == "racy" {
			racy++
		}
		if len(r.pairs) > 0 {
			seen++
		}
		if len(r.races) > 0 {
			fcRacy++
		}
		switch a := r.agree(); {
		case a == "yes":
			agree++
		case a == "false positive":
			falsePos++
		case strings.HasPrefix(a, "yes"):
			fewer++
		default:
			missed++
		}
		findings += len(r.races)
		for _, c := range r.confirmed {
			if c {
				confirmed++
			}
		}
	}
	return fmt.Sprintf("%d systems (%d declared racy, %d race-free): the race detector saw races in %d, fencecheck reports races in %d; "+
		"agree on %d, -race saw fewer cells in %d, fencecheck false positives on %d declared race-free, misses or failures on %d; "+
		"%d of fencecheck's %d race findings confirmed by -race.",
		len(rows), racy, len(rows)-racy, seen, fcRacy, agree, fewer, falsePos, missed, confirmed, findings)
}

// describe says where a race detector access is.
func describe(a placedAccess) string {
	if len(a.lines) == 1 {
		return a.lines[0]
	}
	if len(a.lines) == 0 {
		return "an access without a frame in the corpus's files"
	}
	return fmt.Sprintf("a sync/atomic access at one of %s … %s", a.lines[0], a.lines[len(a.lines)-1])
}

// describeRaces lists race findings with their positions.
func describeRaces(ds []diagnostic) string {
	if len(ds) == 0 {
		return "none"
	}
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%s at %s (related %s)", d.cell(), d.pos, strings.Join(d.related, ", ")))
	}
	return strings.Join(parts, "; ")
}

// copyCorpus copies the module under src (its go.mod and Go files) to dst.
func copyCorpus(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if name := d.Name(); name != "go.mod" && !strings.HasSuffix(name, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
