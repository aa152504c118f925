package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/model"
)

// writeEnginesManifest writes entries to a manifest in a fresh directory,
// with paths relative to the module's root made absolute.
func writeEnginesManifest(t *testing.T, entries []engineEntry) string {
	t.Helper()
	for i := range entries {
		e := &entries[i]
		for _, p := range []*string{&e.File, &e.Go} {
			if *p != "" {
				abs, err := filepath.Abs(filepath.Join("..", "..", *p))
				if err != nil {
					t.Fatal(err)
				}
				*p = abs
			}
		}
	}
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "engines.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBenchEngines runs bench -engines on a model file and a Go system: a
// row per system and model, a column per engine, every engine's answer a
// verdict, a refusal or inconclusive, the fastest in bold, and the
// summary.
func TestBenchEngines(t *testing.T) {
	manifest := writeEnginesManifest(t, []engineEntry{
		{File: "testdata/rmm/sb.rmm", Name: "store buffering"},
		{Go: "examples/locks", System: "petersonSystem"},
	})
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "-engines", "-manifest=" + manifest, "-maxwork=200000", "-format=markdown"}, &stdout, &stderr)
	if code != exitSafe {
		t.Fatalf("exit %d, want 0; stderr:\n%s\nstdout:\n%s", code, stderr.String(), stdout.String())
	}
	out := stdout.String()
	es := benchedEngines()
	header := "| system | goroutines | model | " + strings.Join(registry.Names(es), " | ") + " | auto (its plan) |"
	if !strings.Contains(out, header) {
		t.Errorf("no header %q in:\n%s", header, out)
	}
	for _, row := range []string{"| store buffering | 2 | tso | ", "| store buffering | 2 | sc | ", "| locks.petersonSystem | 2 | tso | ", "| locks.petersonSystem | 2 | sc | "} {
		line := lineWith(out, row)
		if line == "" {
			t.Errorf("no row %q in:\n%s", row, out)
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3+len(es)+1 {
			t.Errorf("row %q has %d cells, want %d", line, len(cells), 3+len(es)+1)
			continue
		}
		if !strings.Contains(line, "**") {
			t.Errorf("row %q marks no fastest engine", line)
		}
		// Store buffering is unsafe under TSO and safe under SC, and so
		// is Peterson's lock without barriers.
		want := "unsafe"
		if strings.Contains(row, "| sc |") {
			want = "safe"
		}
		for i, c := range cells[3 : 3+len(es)] {
			c = strings.Trim(c, "*")
			verdict, _, _ := strings.Cut(c, " ")
			if verdict != want && verdict != "safe" && c != "refused" && c != "inconclusive" {
				t.Errorf("row %q: %s says %q", row, es[i].Name, c)
			}
			if verdict == "safe" && want == "unsafe" && !strings.HasPrefix(c, "safe (bounded)") {
				t.Errorf("row %q: %s proves an unsafe program safe: %q", row, es[i].Name, c)
			}
		}
	}
	for _, e := range es {
		if !strings.Contains(out, "- "+e.Name+": fastest on ") {
			t.Errorf("the summary has no line for %s:\n%s", e.Name, out)
		}
	}
}

// lineWith returns the first line of s that starts with prefix.
func lineWith(s, prefix string) string {
	for l := range strings.Lines(s) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestBenchEnginesManifest checks the manifest's errors.
func TestBenchEnginesManifest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries string
		want    string
	}{
		{"empty", `[]`, "lists no system"},
		{"both", `[{"file": "a.rmm", "go": "x", "system": "s"}]`, "a file or a go package, not both"},
		{"neither", `[{"name": "x"}]`, "a file or a go package, not both"},
		{"no system", `[{"go": "x"}]`, "names a go package and no system"},
		{"not json", `{`, "manifest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.json")
			if err := os.WriteFile(path, []byte(tc.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"bench", "-engines", "-manifest=" + path}, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.want)
			}
		})
	}
	// A system a Go package does not have is named with those it has.
	manifest := writeEnginesManifest(t, []engineEntry{{Go: "examples/locks", System: "noSuchSystem"}})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-engines", "-manifest=" + manifest}, &stdout, &stderr); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "no system noSuchSystem (it has ") || !strings.Contains(stderr.String(), "petersonSystem") {
		t.Errorf("stderr %q does not name the systems", stderr.String())
	}
}

// TestEngineRowWins checks the choice of the fastest and the report of a
// disagreement on rows made by hand.
func TestEngineRowWins(t *testing.T) {
	safe := func(ms int, bound string) engineRun {
		return engineRun{res: &engines.Result{Status: engines.Safe, Bound: bound}, cpu: time.Duration(ms) * time.Millisecond, verdict: bound == ""}
	}
	es := []*registry.Entry{registry.Lookup(registry.Explicit), registry.Lookup(registry.SB), registry.Lookup(registry.BMC)}
	row := &engineRow{name: "p", model: model.TSO, runs: []engineRun{safe(100, ""), safe(50, ""), safe(1, "an unrolling bound")}}
	o := enginesOptions{tie: 1.25, slack: time.Millisecond}
	row.win = wins(row.runs, o)
	if got, want := row.win, []bool{false, true, false}; !equalBools(got, want) {
		t.Errorf("wins %v, want %v (a bounded answer is no verdict)", got, want)
	}
	if c := row.conflict(es); c != "" {
		t.Errorf("conflict %q on agreeing engines", c)
	}
	row.runs[0] = engineRun{res: &engines.Result{Status: engines.Unsafe}, cpu: 60 * time.Millisecond, verdict: true}
	row.win = wins(row.runs, o)
	if got, want := row.win, []bool{true, true, false}; !equalBools(got, want) {
		t.Errorf("wins %v, want %v (within 1.25x)", got, want)
	}
	if c := row.conflict(es); !strings.Contains(c, "sb say safe, explicit unsafe") {
		t.Errorf("conflict %q, want sb against explicit", c)
	}
	lines := winSummary([]*engineRow{row}, es)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "- explicit: fastest on 1 of 1") || strings.Contains(lines[0], "only") {
		t.Errorf("summary %q", lines)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
