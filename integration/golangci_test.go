package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// envGolangci names a golangci-lint binary with the fencecheck plugin; when
// it is empty the test builds one from tools/golangci.
const envGolangci = "FENCECHECK_GOLANGCI_LINT"

var (
	golangciOnce sync.Once
	golangciBin  string
	golangciErr  error
)

// golangciBinary returns the path of golangci-lint with the fencecheck
// plugin: $FENCECHECK_GOLANGCI_LINT, or a binary built from tools/golangci.
func golangciBinary(t *testing.T) string {
	t.Helper()
	golangciOnce.Do(func() {
		if p := os.Getenv(envGolangci); p != "" {
			golangciBin, golangciErr = filepath.Abs(p)
			return
		}
		golangciBin = filepath.Join(sharedDir, "bin", "golangci-lint")
		cmd := exec.Command("go", "build", "-o", golangciBin, ".")
		cmd.Dir = filepath.Join(repoRoot(t), "tools", "golangci")
		if out, err := cmd.CombinedOutput(); err != nil {
			golangciErr = fmt.Errorf("building tools/golangci: %v\n%s", err, out)
		}
	})
	if golangciErr != nil {
		t.Fatal(golangciErr)
	}
	return golangciBin
}

// golangciConfig enables only fencecheck, as a module plugin with settings.
const golangciConfig = `version: "2"
linters:
  default: none
  enable:
    - fencecheck
  settings:
    custom:
      fencecheck:
        type: module
        description: memory barriers for lock-free code on x86-TSO
        settings:
          engine: %s
          fences: cheapest
          placement: after-writes
          budget: 1m
          races: false
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
`

// gclIssue is the part of an issue in golangci-lint's JSON output the test
// reads.
type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
	SuggestedFixes []json.RawMessage
}

// golangciRun runs golangci-lint run in mod with args, with the text report
// on stdout and the JSON report in a file, and returns both.
func golangciRun(t *testing.T, mod string, args ...string) (result, []gclIssue) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	env := []string{"GOLANGCI_LINT_CACHE=" + filepath.Join(sharedDir, "golangci-cache")}
	args = append([]string{"run", "--output.text.path=stdout", "--output.text.colors=false", "--output.json.path=" + report}, args...)
	r := run(t, mod, env, golangciBinary(t), append(args, "./...")...)
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("golangci-lint wrote no JSON report (exit %d): %v\n%s", r.code, err, r.out)
	}
	var rep struct{ Issues []gclIssue }
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("golangci-lint's JSON report: %v\n%s", err, data)
	}
	return r, rep.Issues
}

// issueLines returns the sorted lines of the fencecheck issues in file, and
// fails t on an issue from another linter or file or without the x86-TSO
// message.
func issueLines(t *testing.T, issues []gclIssue, file string) []int {
	t.Helper()
	var lines []int
	for _, is := range issues {
		if is.FromLinter != "fencecheck" || filepath.ToSlash(is.Pos.Filename) != file || !strings.HasPrefix(is.Text, "x86-TSO: ") {
			t.Errorf("unexpected issue %+v", is)
			continue
		}
		if len(is.SuggestedFixes) == 0 {
			t.Errorf("%s:%d: issue has no suggested fix", file, is.Pos.Line)
		}
		lines = append(lines, is.Pos.Line)
	}
	slices.Sort(lines)
	return lines
}

// TestGolangciLint runs a real golangci-lint v2 binary with the fencecheck
// module plugin on the store-buffering module: it reports both stores, a
// //nolint:fencecheck silences one, --fix applies the suggested fix, and a
// bad setting stops golangci-lint with an error that names it.
func TestGolangciLint(t *testing.T) {
	requireIntegration(t)
	mod := lockfreeModule(t)
	const file = "sb/sb.go"

	for _, engine := range []string{"auto", "sb"} {
		writeFile(t, mod, ".golangci.yml", []byte(fmt.Sprintf(golangciConfig, engine)))
		r, issues := golangciRun(t, mod)
		if r.code != 1 {
			t.Errorf("engine %s: golangci-lint exited %d on a module with findings, want 1\n%s", engine, r.code, r.out)
		}
		if got := issueLines(t, issues, file); !slices.Equal(got, sbStoreLines) {
			t.Errorf("engine %s: fencecheck issues on lines %v, want %v\n%s", engine, got, sbStoreLines, r.out)
		}
		for _, line := range sbStoreLines {
			// The text report: file:line:col: message (linter).
			if !strings.Contains(r.out, fmt.Sprintf("%s:%d:", file, line)) || !strings.Contains(r.out, "(fencecheck)") {
				t.Errorf("engine %s: text report lacks %s:%d: ... (fencecheck)\n%s", engine, file, line, r.out)
			}
		}
	}

	// //nolint:fencecheck on the first store silences its issue only.
	replaceLine(t, mod, file, sbStoreLines[0], func(s string) string { return s + " //nolint:fencecheck // checked by hand" })
	r, issues := golangciRun(t, mod)
	if got := issueLines(t, issues, file); !slices.Equal(got, sbStoreLines[1:]) {
		t.Errorf("with //nolint:fencecheck on line %d: issues on lines %v, want %v\n%s", sbStoreLines[0], got, sbStoreLines[1:], r.out)
	}

	// --fix applies the fix of the reported issue and leaves the silenced
	// store alone.
	golangciRun(t, mod, "--fix")
	src := readFile(t, mod, file)
	if !strings.Contains(src, "atomic.StoreInt32(&y, 1)") || !strings.Contains(src, "x = 1 //nolint:fencecheck") {
		t.Errorf("after --fix with one store silenced, want y's store atomic and x's plain:\n%s", src)
	}

	// Without the nolint comment, --fix repairs the rest; the fixed module
	// builds, equals the expected fix and has nothing left to report.
	// (The fix merged the import into a group: the lines have moved.)
	src = strings.Replace(src, " //nolint:fencecheck // checked by hand", "", 1)
	writeFile(t, mod, file, []byte(src))
	golangciRun(t, mod, "--fix")
	mustRun(t, mod, nil, "go", "vet", "./...")
	if got, want := readFile(t, mod, file), string(fixedSB(t)); got != want {
		t.Errorf("after --fix, %s =\n%s\nwant\n%s", file, got, want)
	}
	r, issues = golangciRun(t, mod)
	if r.code != 0 || len(issues) != 0 {
		t.Errorf("after --fix: exit %d, issues %+v; want exit 0 and none\n%s", r.code, issues, r.out)
	}

	// A bad setting: golangci-lint stops and names it.
	bad := strings.Replace(fmt.Sprintf(golangciConfig, "auto"), "budget: 1m", "budget: 1m\n          engines: sb", 1)
	writeFile(t, mod, ".golangci.yml", []byte(bad))
	r = run(t, mod, nil, golangciBinary(t), "run", "./...")
	if r.code == 0 || r.code == 1 || !strings.Contains(r.out, `unknown setting "engines"`) {
		t.Errorf("with an unknown setting: exit %d, want a failure (not 0 or 1) naming \"engines\"\n%s", r.code, r.out)
	}
}
